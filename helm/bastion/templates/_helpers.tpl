{{/*
Helpers. Several are meant to be included from YOUR chart (bastion.sidecarContainer, bastion.sidecarVolumes),
where .Chart is your chart, not this one. So they only read .Values and .Release, and the chart name is fixed.
Context for those: (dict "Values" .Values.bastion "Release" .Release), with bastion as a dependency of your chart.
*/}}

{{- define "bastion.name" -}}
{{- default "bastion" .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "bastion.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := include "bastion.name" . }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "bastion.selectorLabels" -}}
app.kubernetes.io/name: {{ include "bastion.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "bastion.labels" -}}
{{ include "bastion.selectorLabels" . }}
app.kubernetes.io/managed-by: {{ .Release.Service | default "Helm" }}
{{- with .Chart }}
helm.sh/chart: {{ printf "%s-%s" .Name .Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/version: {{ .AppVersion | quote }}
{{- end }}
{{- end }}

{{- define "bastion.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "bastion.fullname" .) }}
{{- end }}

{{/* The image tag falls back to appVersion only when .Chart really is this chart (see the note at the top). */}}
{{- define "bastion.image" -}}
{{- $tag := .Values.image.tag }}
{{- if not $tag }}
{{- with .Chart }}{{ if eq .Name "bastion" }}{{ $tag = .AppVersion }}{{ end }}{{ end }}
{{- end }}
{{- if not $tag }}
{{- fail "bastion: set image.tag (the including chart's appVersion is not Bastion's version)" }}
{{- end }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}

{{/* preStop + drain + 5 s slack: the kubelet SIGKILLs at the end of this period, preStop time included. */}}
{{- define "bastion.terminationGracePeriodSeconds" -}}
{{- $graceS := div (add .Values.shutdown.graceMs 999) 1000 }}
{{- $needed := add .Values.shutdown.preStopSleepSeconds $graceS }}
{{- $set := int .Values.shutdown.terminationGracePeriodSeconds }}
{{- if eq $set 0 }}
{{- add $needed 5 }}
{{- else if le $set (int $needed) }}
{{- fail (printf "shutdown.terminationGracePeriodSeconds (%d) must exceed shutdown.preStopSleepSeconds + shutdown.graceMs/1000 (%d), or Kubernetes kills Bastion mid-drain" $set (int $needed)) }}
{{- else }}
{{- $set }}
{{- end }}
{{- end }}

{{- define "bastion.redisEnabled" -}}
{{- if or .Values.redis.enabled .Values.redis.url }}true{{ end }}
{{- end }}

{{/* Settings that must never sit in a ConfigMap (schema.ts marks them secret), plus the two storage URLs. */}}
{{- define "bastion.secretEnvNames" -}}
{{- list "BASTION_API_KEYS" "BASTION_ADMIN_KEY" "BASTION_MASTER_KEY" "BASTION_JWT_SECRET" "UPSTREAM_API_KEY" "ANTHROPIC_UPSTREAM_API_KEY" "GEMINI_API_KEY" "AZURE_OPENAI_API_KEY" "EVOLUTION_LLM_API_KEY" "BASTION_METRICS_TOKEN" "LND_MACAROON" "BASTION_JUDGE_API_KEY" "DATABASE_URL" "REDIS_URL" | toJson }}
{{- end }}

{{/*
Container env: plain settings from the ConfigMap; secrets from the Secret by reference, so no value ever
appears in a pod spec. The whole Secret is loaded (envFrom), so a new secret setting needs no chart change.
*/}}
{{- define "bastion.env" -}}
{{- $secret := include "bastion.secretName" . -}}
envFrom:
  - configMapRef:
      name: {{ include "bastion.fullname" . }}
  - secretRef:
      name: {{ $secret }}
      optional: true
{{- $required := list }}
{{- if or (eq .Values.database.kind "postgres") .Values.database.url }}{{ $required = append $required "DATABASE_URL" }}{{ end }}
{{- if include "bastion.redisEnabled" . }}{{ $required = append $required "REDIS_URL" }}{{ end }}
{{- with $required }}
env:
  {{- range . }}
  # Named explicitly so a missing key stops the pod instead of Bastion silently running on private state.
  - name: {{ . }}
    valueFrom:
      secretKeyRef:
        name: {{ $secret }}
        key: {{ . }}
  {{- end }}
{{- end }}
{{- end }}

{{- define "bastion.probes" -}}
{{- $p := .Values.probes -}}
startupProbe:
  {{- include "bastion.probeAction" (list . "/livez") | nindent 2 }}
  periodSeconds: {{ $p.startup.periodSeconds }}
  timeoutSeconds: {{ $p.startup.timeoutSeconds }}
  failureThreshold: {{ $p.startup.failureThreshold }}
livenessProbe:
  {{- include "bastion.probeAction" (list . "/livez") | nindent 2 }}
  periodSeconds: {{ $p.liveness.periodSeconds }}
  timeoutSeconds: {{ $p.liveness.timeoutSeconds }}
  failureThreshold: {{ $p.liveness.failureThreshold }}
readinessProbe:
  {{- include "bastion.probeAction" (list . "/readyz") | nindent 2 }}
  periodSeconds: {{ $p.readiness.periodSeconds }}
  timeoutSeconds: {{ $p.readiness.timeoutSeconds }}
  failureThreshold: {{ $p.readiness.failureThreshold }}
{{- end }}

{{/*
The Bastion container as a list item, for `containers:` (or `initContainers:` with sidecar.native).
Usage in your chart:  containers:
                        {{- include "bastion.sidecarContainer" (dict "Values" .Values.bastion "Release" .Release) | nindent 8 }}
*/}}
{{- define "bastion.sidecarContainer" -}}
{{- include "bastion.validate" . -}}
- name: bastion
  image: {{ include "bastion.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  {{- if and .Values.sidecar.native (eq .Values.mode "sidecar") }}
  # Native sidecar (Kubernetes >= 1.29): starts before and stops after the app containers.
  restartPolicy: Always
  {{- end }}
  args: ["node", "bin/bastion.js", "serve"]
  ports:
    - name: bastion-http
      containerPort: {{ .Values.ports.http }}
      protocol: TCP
    - name: bastion-admin
      containerPort: {{ .Values.ports.admin }}
      protocol: TCP
  {{- include "bastion.env" . | nindent 2 }}
  {{- include "bastion.probes" . | nindent 2 }}
  lifecycle:
    preStop:
      # Exec sleep works on every Kubernetes version (lifecycle.sleep needs >= 1.30).
      exec:
        command: ["sleep", "{{ .Values.shutdown.preStopSleepSeconds }}"]
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: bastion-data
      mountPath: /app/data
    - name: bastion-tmp
      # The root filesystem is read-only: /tmp (os.tmpdir()) is the one writable scratch directory besides the data volume.
      mountPath: /tmp
{{- end }}

{{/* The two volumes bastion.sidecarContainer mounts, as list items for your pod's `volumes:`. */}}
{{- define "bastion.sidecarVolumes" -}}
- name: bastion-data
  emptyDir: {}
- name: bastion-tmp
  emptyDir:
    medium: Memory
    sizeLimit: 64Mi
{{- end }}

{{/*
Render-time checks: every combination that would deploy but misbehave fails here with a message instead.
*/}}
{{- define "bastion.validate" -}}
{{- $v := .Values }}
{{- $secretKeys := include "bastion.secretEnvNames" . | fromJsonArray }}
{{- $managed := dict "BASTION_HOST" "set by mode: 127.0.0.1 in sidecar mode, the pod IP (0.0.0.0) in gateway mode" "BASTION_ADMIN_HOST" "set sidecar.exposeAdmin" "BASTION_SIDECAR_KEY_RATE" "set keyRatePerMinute" "BASTION_PORT" "set ports.http" "BASTION_ADMIN_PORT" "set ports.admin" "BASTION_SHUTDOWN_GRACE_MS" "set shutdown.graceMs, which also sizes terminationGracePeriodSeconds" }}
{{- range $name, $_ := $v.env }}
{{- if has $name $secretKeys }}
{{- fail (printf "env.%s would put a secret into a ConfigMap: use secrets.values.%s (database.url / redis.url for the storage URLs) or secrets.existingSecret" $name $name) }}
{{- end }}
{{- if hasKey $managed $name }}
{{- fail (printf "env.%s is managed by the chart: %s" $name (get $managed $name)) }}
{{- end }}
{{- end }}
{{- $inline := list }}
{{- range $name, $value := $v.secrets.values }}
{{- if or (eq $name "DATABASE_URL") (eq $name "REDIS_URL") }}
{{- fail (printf "secrets.values.%s: use %s, which the chart checks against database.kind / redis.enabled" $name (ternary "database.url" "redis.url" (eq $name "DATABASE_URL"))) }}
{{- end }}
{{- if $value }}{{ $inline = append $inline $name }}{{ end }}
{{- end }}
{{- if and $v.secrets.existingSecret (or $inline $v.database.url $v.redis.url) }}
{{- fail "secrets.existingSecret is set: put the secret settings (and DATABASE_URL, REDIS_URL) in that Secret and leave secrets.values, database.url and redis.url empty" }}
{{- end }}
{{- $url := $v.database.url }}
{{- if eq $v.database.kind "postgres" }}
{{- if and $url (not (regexMatch "^postgres(ql)?://" $url)) }}
{{- fail "database.kind is postgres but database.url does not start with postgres:// or postgresql://" }}
{{- end }}
{{- if and (not $url) (not $v.secrets.existingSecret) }}
{{- fail "database.kind is postgres: set database.url (postgres://user:password@host:5432/db) or provide DATABASE_URL in secrets.existingSecret" }}
{{- end }}
{{- else if $url }}
{{- if regexMatch "^postgres(ql)?://" $url }}
{{- fail "database.url is a PostgreSQL URL: set database.kind=postgres" }}
{{- end }}
{{- if not (regexMatch "^sqlite:.+" $url) }}
{{- fail "database.url must be sqlite:<path> or postgres://..." }}
{{- end }}
{{- end }}
{{- if and $v.redis.url (not (regexMatch "^rediss?://" $v.redis.url)) }}
{{- fail "redis.url must start with redis:// or rediss://" }}
{{- end }}
{{- if and $v.redis.enabled (not $v.redis.url) (not $v.secrets.existingSecret) }}
{{- fail "redis.enabled is true: set redis.url or provide REDIS_URL in secrets.existingSecret" }}
{{- end }}
{{- if eq $v.mode "gateway" }}
{{- $max := int $v.replicas }}
{{- if $v.autoscaling.enabled }}{{ $max = int $v.autoscaling.maxReplicas }}{{ end }}
{{- if gt $max 1 }}
{{- if ne $v.database.kind "postgres" }}
{{- fail (printf "gateway mode with %d replicas needs PostgreSQL (database.kind=postgres): with SQLite each replica keeps its own database, so API keys, quotas and rate limits would not be shared" $max) }}
{{- end }}
{{- if not (include "bastion.redisEnabled" .) }}
{{- fail (printf "gateway mode with %d replicas needs Redis (redis.url, or redis.enabled with REDIS_URL in secrets.existingSecret): rate windows, counters and key revocation must be shared across replicas" $max) }}
{{- end }}
{{- end }}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not exceed autoscaling.maxReplicas" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The chart Secret's entries as JSON (plain values, not yet base64). Context: (dict "Values" .Values "existing" S),
where S is the Secret already in the cluster (from lookup) or empty. With secrets.generate.enabled, a first API key
and a master key fill what values leaves empty: taken from S when it has them (so upgrades never rotate them), new
random ones otherwise. Kept separate from the lookup so tests can hand it an existing Secret.
*/}}
{{- define "bastion.secretData" -}}
{{- $v := .Values }}
{{- $data := dict }}
{{- range $name, $value := $v.secrets.values }}
{{- if $value }}{{ $_ := set $data $name (toString $value) }}{{ end }}
{{- end }}
{{- with $v.database.url }}{{ $_ := set $data "DATABASE_URL" . }}{{ end }}
{{- with $v.redis.url }}{{ $_ := set $data "REDIS_URL" . }}{{ end }}
{{- if (($v.secrets).generate).enabled }}
{{- $old := (.existing | default dict).data | default dict }}
{{- if not (hasKey $data "BASTION_API_KEYS") }}
{{- if get $old "BASTION_API_KEYS" }}
{{- $_ := set $data "BASTION_API_KEYS" (get $old "BASTION_API_KEYS" | b64dec) }}
{{- else }}
{{- $_ := set $data "BASTION_API_KEYS" (printf "%s:bst_%s" $v.secrets.generate.tenant (randAlphaNum 43)) }}
{{- end }}
{{- end }}
{{- if not (hasKey $data "BASTION_MASTER_KEY") }}
{{- if get $old "BASTION_MASTER_KEY" }}
{{- $_ := set $data "BASTION_MASTER_KEY" (get $old "BASTION_MASTER_KEY" | b64dec) }}
{{- else }}
{{- /* randBytes gives base64, which BASTION_MASTER_KEY accepts as is. */}}
{{- $_ := set $data "BASTION_MASTER_KEY" (randBytes 32) }}
{{- end }}
{{- end }}
{{- end }}
{{- toJson $data }}
{{- end }}

{{/*
One probe's action. Gateway: an HTTP GET on the pod IP. Sidecar: the data plane listens on 127.0.0.1 only, which
the kubelet cannot reach, so the check runs inside the container with the Node it already has (no curl in the image).
*/}}
{{- define "bastion.probeAction" -}}
{{- $ctx := index . 0 }}{{ $path := index . 1 }}
{{- if eq $ctx.Values.mode "gateway" -}}
httpGet: { path: {{ $path }}, port: {{ $ctx.Values.ports.http }} }
{{- else -}}
exec:
  command: ["node", "-e", "fetch('http://127.0.0.1:{{ $ctx.Values.ports.http }}{{ $path }}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
{{- end }}
{{- end }}
