"""Writes datasets/curated/prompts-benign-broad.jsonl and tool-results-benign-broad.jsonl from the hand-written
benign-*.py sources next to this file (deterministic: fixed seeds, source order kept).

    python3 datasets/curated/generators/benign-build.py            # write both files
    python3 datasets/curated/generators/benign-build.py --check    # also check against other corpora

--check refuses duplicates (case and whitespace ignored) within the new files and against every other
datasets/curated/*.jsonl, datasets/*.jsonl and the dev set texts (../shared/eval), so no row leaks evaluation text.
"""
import glob
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CURATED = os.path.dirname(HERE)
OUTPUTS = {
    "prompt": os.path.join(CURATED, "prompts-benign-broad.jsonl"),
    "tool_result": os.path.join(CURATED, "tool-results-benign-broad.jsonl"),
}
MAX_CHARS = 8000


def load(name: str):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def rows_for(kind: str, entries, prefix: str) -> list[dict]:
    category = "curated_prompt_benign" if kind == "prompt" else "curated_tool_result_benign"
    rows = []
    for i, (sub, group, text) in enumerate(entries, start=1):
        text = text.strip()
        assert 0 < len(text) <= MAX_CHARS, (group, len(text))
        rows.append({"id": f"{prefix}{i:04d}", "text": text, "label": "benign", "kind": kind, "category": category, "subcategory": sub, "group": f"{prefix}{group}"})
    return rows


def build() -> dict[str, list[dict]]:
    system = load("benign-prompts-system").SYSTEM_PROMPTS
    user = load("benign-prompts-user").ALL_USER
    more = load("benign-prompts-more").MORE
    long_prompts = load("benign-prompts-long").LONG
    composed = load("benign-prompts-composed").composed_system_prompts()
    prompts = rows_for("prompt", system + user + more + long_prompts + composed, "bb-p-")
    docs = load("benign-tool-results-docs").DOCS
    messages = load("benign-tool-results-messages").MESSAGES
    data = load("benign-tool-results-data").DATA
    more = load("benign-tool-results-more").MORE
    long_results = load("benign-tool-results-long").LONG
    generated = load("benign-tool-results-composed").composed_tool_results()
    tools = rows_for("tool_result", docs + messages + data + more + long_results + generated, "bb-t-")
    return {"prompt": prompts, "tool_result": tools}


def other_texts() -> dict[str, str]:
    """Normalised text -> where it occurs, for every corpus the new rows must not repeat."""
    seen: dict[str, str] = {}
    paths = [p for p in glob.glob(os.path.join(CURATED, "*.jsonl")) if p not in OUTPUTS.values()]
    paths += glob.glob(os.path.join(CURATED, "..", "*.jsonl"))
    shared = os.path.join(CURATED, "..", "..", "..", "shared", "eval")
    paths += [os.path.join(shared, "dev.jsonl")] + glob.glob(os.path.join(shared, "extra", "*.jsonl"))
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    seen.setdefault(norm(json.loads(line)["text"]), os.path.basename(path))
    return seen


def main() -> None:
    out = build()
    if "--check" in sys.argv:
        seen = other_texts()
        mine: set[str] = set()
        problems = 0
        for rows in out.values():
            for row in rows:
                key = norm(row["text"])
                if key in mine or key in seen:
                    print(f"duplicate: {row['id']} ({seen.get(key, 'new files')})", file=sys.stderr)
                    problems += 1
                mine.add(key)
        if problems:
            sys.exit(1)
    for kind, rows in out.items():
        with open(OUTPUTS[kind], "w", encoding="utf-8") as f:
            f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        print(f"{os.path.basename(OUTPUTS[kind])}: {len(rows)} rows")


if __name__ == "__main__":
    main()
