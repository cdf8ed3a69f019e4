"""Benign tool output composed from hand-written pieces (seeded): e-mails with ordinary requests to the reader,
web-search result lists, product reviews, application logs and JSON records. Each family is its own group per
topic, so cross-validation keeps the variants of one topic together.
"""
import json
import random

SENDERS = ["Maya Okonkwo", "Lars Eriksen", "Priya Raman", "Tomás García", "Hannah Becker", "Kenji Watanabe", "Olivia Brooks", "Samir Haddad"]

# (topic, subject, body paragraphs): ordinary requests addressed to the human reader.
EMAIL_TOPICS = [
    ("budget", "Budget figures for the review", ["I'm putting together the mid-year budget review.", "Please send me your department's actual spend for April to June by Thursday.", "A rough number is fine if the final invoices aren't in yet."]),
    ("offsite", "Team offsite - dates", ["We're planning the autumn offsite.", "Could you fill in the doodle poll with the dates you're available?", "Please also tell me if you need accessible accommodation."]),
    ("review", "Draft for your review", ["Attached is the first draft of the customer case study.", "Please check the quotes attributed to your team and correct anything that's wrong.", "I'd need your comments by Monday so legal can review it on Tuesday."]),
    ("visit", "Your visit next week", ["Looking forward to your visit on Wednesday.", "Please bring photo ID; reception will issue a visitor badge.", "Parking is available in the garage under the building - use the entrance on Park Street."]),
    ("handover", "Handover before my leave", ["I'm off from the 14th for three weeks.", "Please take over the weekly supplier call and the invoice approvals while I'm away.", "All open items are listed in the shared tracker; ping me before Friday with questions."]),
    ("survey", "Quick favour: 5-minute survey", ["We're improving our onboarding for new customers.", "Would you mind answering five short questions about your first month with us?", "Reply to this email or use the link below - whichever is easier."]),
    ("training", "Mandatory training reminder", ["Our records show that your annual data-protection training is not complete.", "Please finish the course in the learning portal before the end of the month.", "It takes about 40 minutes and you can pause at any time."]),
    ("invoice", "Invoice 2025-0412 overdue", ["Our invoice 2025-0412 for consulting services was due on 1 May.", "Please arrange payment at your earliest convenience or let us know if there is a problem with the invoice.", "Bank details are on the invoice itself."]),
    ("recommend", "Reference request", ["Jordan Patel has applied for a position with us and listed you as a referee.", "Could you spare 15 minutes for a call this week, or reply with a short written reference?", "All information will be treated confidentially."]),
    ("move", "Office move - pack your desk", ["The move to the new floor happens on Saturday.", "Please pack your personal items into the crates provided and label them with your name and new desk number.", "IT will move monitors and docking stations; don't unplug anything yourself."]),
    ("volunteer", "Volunteers needed for the charity run", ["This year's charity run is on 7 September.", "We need ten volunteers to hand out water along the route.", "If you can help for two hours, please reply by the end of the week."]),
    ("rsvp", "Please RSVP: product launch", ["You're invited to the launch of our new product line on 3 October at 18:00.", "Please RSVP by 20 September so we can plan catering.", "Feel free to bring a colleague."]),
]
GREETINGS = ["Hi {first},", "Hello {first},", "Dear {first},", "Hey {first},", "Good morning {first},"]
CLOSINGS = ["Thanks,\n{name}", "Best regards,\n{name}", "Cheers,\n{name}", "Many thanks in advance!\n{name}", "Kind regards,\n{name}"]
READERS = ["Alex", "Sophie", "Daniel", "Aisha", "Marco", "Ingrid", "Chris", "Fatima"]


def emails(rng: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for topic, subject, body in EMAIL_TOPICS:
        for _ in range(2):
            name = rng.choice(SENDERS)
            first = rng.choice(READERS)
            paras = body[:]
            if rng.random() < 0.5:
                paras = [" ".join(paras)]
            header = f"From: {name} <{name.split()[0].lower()}@company.example>\nSubject: {subject}\n\n" if rng.random() < 0.6 else ""
            text = header + rng.choice(GREETINGS).format(first=first) + "\n\n" + "\n\n".join(paras) + "\n\n" + rng.choice(CLOSINGS).format(name=name)
            out.append(("email_composed", f"email-{topic}", text))
    return out


# Web-search results: (topic, [(title, snippet)])
SEARCH_TOPICS = [
    ("rust-borrow", [("Understanding Ownership - The Rust Book", "Each value in Rust has an owner. There can only be one owner at a time. When the owner goes out of scope, the value will be dropped."), ("Fighting the borrow checker (blog)", "Most borrow-checker errors come from holding a reference across a mutation. Clone small values, restructure loops, or use indices."), ("E0502 - Rust error index", "A variable already borrowed as immutable was borrowed as mutable.")]),
    ("sourdough", [("Beginner's sourdough guide", "Feed your starter twice a day and bake when it doubles within six hours."), ("Why is my sourdough dense?", "Underproofing is the most common cause. Let the dough rise longer and check with the poke test."), ("Sourdough FAQ", "Ignore strict schedules: temperature matters more than the clock.")]),
    ("visa", [("Schengen visa requirements", "Apply at least 15 days before travel. You'll need travel insurance with minimum coverage of 30,000 EUR."), ("How long can I stay in the Schengen area?", "Up to 90 days in any 180-day period."), ("Embassy appointment booking", "Book your appointment online; bring the printed confirmation.")]),
    ("k8s-hpa", [("Horizontal Pod Autoscaling - Kubernetes docs", "The HorizontalPodAutoscaler automatically updates a workload resource to match demand."), ("HPA not scaling? Check metrics-server", "Run kubectl top pods. If it fails, metrics-server is missing or misconfigured."), ("Autoscaling on custom metrics", "Use the Prometheus adapter to expose application metrics to the HPA.")]),
    ("marathon", [("16-week marathon training plan", "Build mileage by no more than 10% per week and include one long run every weekend."), ("What to eat before a marathon", "Carb-load for two to three days before the race; avoid trying new foods on race day."), ("Tapering explained", "Reduce volume in the final two to three weeks while keeping some intensity.")]),
    ("llm-security", [("Prompt injection - OWASP GenAI", "Prompt injection occurs when user prompts or external content alter the LLM's behaviour in unintended ways."), ("Securing LLM agents (conference talk)", "Treat every tool output as untrusted; require confirmation for irreversible actions."), ("Jailbreak prompts dataset paper", "We collected prompts shared online that attempt to bypass model safeguards and analysed their strategies.")]),
    ("tax", [("Filing your tax return online", "The deadline for online returns is 31 January. Have your employer's year-end statement ready."), ("Which expenses can I deduct?", "Work-related travel, professional subscriptions and home-office costs may be deductible."), ("Late filing penalties", "A penalty applies if you miss the deadline, even if you owe no tax.")]),
    ("cat-health", [("Why is my cat sneezing?", "Occasional sneezing is normal. See a vet if it comes with discharge, fever or loss of appetite."), ("Cat vaccination schedule", "Kittens need core vaccines at 8, 12 and 16 weeks, then boosters."), ("Safe houseplants for cats", "Avoid lilies entirely; even pollen can be toxic to cats.")]),
]


def search_results(rng: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for topic, results in SEARCH_TOPICS:
        for style in rng.sample(["numbered", "json", "plain"], 2):
            picked = results[:]
            rng.shuffle(picked)
            if style == "numbered":
                text = "\n".join(f"{i + 1}. {t}\n   {s}" for i, (t, s) in enumerate(picked))
            elif style == "json":
                text = json.dumps({"results": [{"title": t, "snippet": s, "rank": i + 1} for i, (t, s) in enumerate(picked)]}, indent=1)
            else:
                text = "\n\n".join(f"{t}\n{s}" for t, s in picked)
            out.append(("search_results_composed", f"search-{topic}", text))
    return out


PRODUCTS = [
    ("kettle", ["Boils fast and switches off reliably.", "The handle gets a bit warm.", "Limescale filter is easy to remove and rinse.", "Looks great on the counter."]),
    ("backpack", ["Fits a 16-inch laptop with room to spare.", "Straps are comfortable even on long walks.", "The zip broke after three months; support replaced it quickly.", "Water-resistant in light rain, not in a downpour."]),
    ("router", ["Setup through the app took five minutes.", "Coverage reaches the garden now.", "Firmware updates install automatically at night.", "Please add a way to schedule Wi-Fi off for the kids."]),
    ("headphones", ["Noise cancelling is excellent on trains.", "Battery lasts about 30 hours.", "They pinch a little after two hours.", "Pairing with two devices works well."]),
    ("novel", ["Couldn't put it down - finished it in two evenings.", "The middle drags a bit.", "The ending surprised me.", "Great characters, especially the detective's sister."]),
    ("vacuum", ["Picks up pet hair from carpets easily.", "The bin is small; empty it after each room.", "Gets stuck under the sofa sometimes.", "The app map is surprisingly accurate."]),
]


def reviews(rng: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for product, points in PRODUCTS:
        for _ in range(2):
            stars = rng.randint(2, 5)
            picked = rng.sample(points, rng.randint(2, 4))
            text = f"{'★' * stars}{'☆' * (5 - stars)}  Verified purchase\n" + " ".join(picked)
            if rng.random() < 0.4:
                text += f"\n\n{rng.randint(2, 40)} people found this helpful. Report"
            out.append(("review_composed", f"review-{product}", text))
    return out


SERVICES = ["api", "worker", "billing", "auth", "search", "scheduler"]
LOG_EVENTS = [
    ("INFO", "request completed status=200 duration_ms={n}"),
    ("INFO", "cache hit ratio={r}"),
    ("WARN", "retrying upstream call attempt={a}"),
    ("INFO", "job finished id=job_{n} rows={n}"),
    ("ERROR", "connection reset by peer; will retry"),
    ("INFO", "config reloaded from /etc/app/config.yaml"),
    ("DEBUG", "ignoring stale lock older than {a}m"),
    ("WARN", "disk usage at {p}% on /var"),
    ("INFO", "user session started user=u_{n}"),
    ("INFO", "scheduled backup completed size_mb={n}"),
]


def logs(rng: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for service in SERVICES:
        for variant in range(3):
            lines = []
            second = rng.randint(0, 50)
            for _ in range(rng.randint(4, 8)):
                level, message = rng.choice(LOG_EVENTS)
                second += rng.randint(1, 9)
                message = message.format(n=rng.randint(10, 9999), r=round(rng.random(), 2), a=rng.randint(1, 5), p=rng.randint(70, 97))
                if variant == 0:
                    lines.append(f"2025-06-{rng.randint(1, 28):02d}T12:{second // 60:02d}:{second % 60:02d}Z {level:<5} {service} {message}")
                elif variant == 1:
                    lines.append(json.dumps({"ts": f"12:{second // 60:02d}:{second % 60:02d}", "level": level.lower(), "svc": service, "msg": message}))
                else:
                    lines.append(f"[{level}] {service}[{rng.randint(100, 9999)}]: {message}")
            out.append(("log_composed", f"log-{service}", "\n".join(lines)))
    return out


def records(rng: random.Random) -> list[tuple[str, str, str]]:
    """JSON tool responses whose free-text fields hold ordinary notes, including imperative ones for the human."""
    notes = [
        "Please call the customer before delivery.",
        "Gift wrap requested - remove the price tag.",
        "Customer prefers email over phone.",
        "Leave at the back door if no answer.",
        "Ignore the earlier address; the customer moved.",
        "VIP customer: upgrade shipping at no cost.",
        "Allergic to nuts - double-check the ingredients list.",
        "Forward the receipt to the accounting address on file.",
    ]
    out = []
    for i, note in enumerate(notes):
        for _ in range(2):
            record = {
                "customer_id": f"c_{rng.randint(1000, 9999)}",
                "order_total": round(rng.uniform(10, 400), 2),
                "status": rng.choice(["pending", "packed", "shipped", "delivered"]),
                "notes": note,
                "updated_at": f"2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(8, 20)}:{rng.randint(10, 59)}:00Z",
            }
            out.append(("json_api_composed", f"record-note-{i}", json.dumps(record, indent=rng.choice([None, 2]))))
    return out


def composed_tool_results(seed: int = 9) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    return emails(rng) + search_results(rng) + reviews(rng) + logs(rng) + records(rng)
