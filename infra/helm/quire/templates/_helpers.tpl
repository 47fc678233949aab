{{- define "quire.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "quire.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "quire.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ include "quire.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (api, worker, migrate): pass (list . "api"). */}}
{{- define "quire.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "quire.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "quire.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Secret variables that must never be written into `config` (they would land in a ConfigMap). */}}
{{- define "quire.secretVariables" -}}
QUIRE_MODEL_API_KEY QUIRE_DATABASE_URL TEMPORAL_API_KEY QDRANT_API_KEY QUIRE_EMBEDDING_API_KEY QUIRE_OPERATOR_TOKEN GITHUB_TOKEN OTEL_EXPORTER_OTLP_HEADERS
{{- end -}}

{{/* Where the credentials of a URL-valued setting go instead: variables set from `secrets` entries. */}}
{{- define "quire.credentialVariables" -}}
# The whole URL.
url:
  REDIS_URL: REDIS_URL
  HTTPS_PROXY: HTTPS_PROXY
  https_proxy: HTTPS_PROXY
  HTTP_PROXY: HTTP_PROXY
  http_proxy: HTTP_PROXY
# The credential, beside a URL without it.
credential:
  QDRANT_URL: QDRANT_API_KEY
  QUIRE_MODEL_BASE_URL: QUIRE_MODEL_API_KEY
  QUIRE_EMBEDDING_BASE_URL: QUIRE_EMBEDDING_API_KEY
  OTEL_EXPORTER_OTLP_ENDPOINT: OTEL_EXPORTER_OTLP_HEADERS
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: OTEL_EXPORTER_OTLP_HEADERS
{{- end -}}

{{/*
What every pod must share, checked before anything renders: pods have data directories of their
own (emptyDir), so the system of record is one PostgreSQL database (its URL from a Secret) and the
document index is Qdrant; a pod's own SQLite file or index would be seen by no other pod.
*/}}
{{- define "quire.sharedState" -}}
{{- if not (.Values.secrets.databaseUrl.secretName | default .Values.secrets.existingSecret) -}}
{{- fail "secrets.existingSecret (or secrets.databaseUrl.secretName) must name the Secret holding the PostgreSQL URL (key database-url): the API, the worker and the migration share one database, and a pod's own SQLite file would be seen by no other pod" -}}
{{- end -}}
{{- if not .Values.config.QDRANT_URL -}}
{{- fail "config.QDRANT_URL is required: the embedded document index lives in each pod's data directory, where the worker's indexing would never reach the API" -}}
{{- end -}}
{{- end -}}

{{/* The non-secret environment as a map: `config` without its empty values, plus the ports. */}}
{{- define "quire.configData" -}}
{{- $secret := splitList " " (include "quire.secretVariables" .) -}}
{{- $credentialVariables := include "quire.credentialVariables" . | fromYaml -}}
{{- /* Each variable a `secrets` entry sets, and that entry, so that a refusal names the value to use. */ -}}
{{- $secretOf := dict -}}
{{- range $entry, $ref := .Values.secrets -}}
{{- if kindIs "map" $ref -}}
{{- $_ := set $secretOf $ref.env (printf "secrets.%s" $entry) -}}
{{- end -}}
{{- end -}}
{{- $data := dict -}}
{{- range $name, $value := .Values.config -}}
{{- /* A values file's numbers are float64, which toString writes as 1e+06 from a million on: the configuration refuses that, so a whole one is written as an integer. */ -}}
{{- $text := toString $value -}}
{{- if and (kindIs "float64" $value) (eq $value (floor $value)) -}}
{{- $text = toString (int64 $value) -}}
{{- end -}}
{{- if has $name $secret -}}
{{- fail (printf "config.%s is a secret: give it through %s (a Secret name and key), never as a value" $name (get $secretOf $name | default "secrets")) -}}
{{- end -}}
{{- /* user:password@ (or a token as the user) of any URL: the ConfigMap and the migration Job are no place for it. */ -}}
{{- if regexMatch "://[^/?#@\\s]+@" $text -}}
{{- $url := get $credentialVariables.url $name -}}
{{- $credential := get $credentialVariables.credential $name -}}
{{- if $url -}}
{{- fail (printf "config.%s holds credentials (user:password@): give the whole URL through %s (a Secret name and key)" $name (get $secretOf $url)) -}}
{{- else if $credential -}}
{{- fail (printf "config.%s holds credentials (user:password@): give the URL without them, and the credential through %s (%s, a Secret name and key)" $name (get $secretOf $credential) $credential) -}}
{{- else -}}
{{- fail (printf "config.%s holds credentials (user:password@): give the URL without them (config is written into a ConfigMap and the migration Job)" $name) -}}
{{- end -}}
{{- end -}}
{{- if has $name (list "PORT" "HOST" "QUIRE_METRICS_HOST" "QUIRE_METRICS_PORT" "QUIRE_WORKER_METRICS_PORT") -}}
{{- fail (printf "config.%s is set by the chart: use api.port and metrics.apiPort/workerPort" $name) -}}
{{- end -}}
{{- if ne $text "" -}}
{{- $_ := set $data $name $text -}}
{{- end -}}
{{- end -}}
{{- $_ := set $data "HOST" "0.0.0.0" -}}
{{- $_ := set $data "PORT" (toString .Values.api.port) -}}
{{- $_ := set $data "QUIRE_METRICS_HOST" "0.0.0.0" -}}
{{- $_ := set $data "QUIRE_METRICS_PORT" (toString .Values.metrics.apiPort) -}}
{{- $_ := set $data "QUIRE_WORKER_METRICS_PORT" (toString .Values.metrics.workerPort) -}}
{{- if .Values.temporalClientTls.secretName -}}
{{- $_ := set $data "TEMPORAL_TLS_CERT" "/etc/quire/temporal-tls/tls.crt" -}}
{{- $_ := set $data "TEMPORAL_TLS_KEY" "/etc/quire/temporal-tls/tls.key" -}}
{{- end -}}
{{- include "quire.sharedState" . -}}
{{- toYaml $data -}}
{{- end -}}

{{/* One env entry reading a variable from a Secret key; nothing when no Secret is named. */}}
{{- define "quire.secretRef" -}}
{{- $root := index . 0 -}}
{{- $ref := index . 1 -}}
{{- $name := $ref.secretName | default $root.Values.secrets.existingSecret -}}
{{- if and $name $ref.key }}
- name: {{ $ref.env }}
  valueFrom:
    secretKeyRef:
      name: {{ $name }}
      key: {{ $ref.key }}
      optional: {{ $ref.optional | default false }}
{{- end -}}
{{- end -}}

{{/* The secrets every process reads. */}}
{{- define "quire.secretEnv" -}}
{{- range $ref := list .Values.secrets.modelApiKey .Values.secrets.databaseUrl .Values.secrets.temporalApiKey .Values.secrets.qdrantApiKey .Values.secrets.embeddingApiKey .Values.secrets.operatorToken .Values.secrets.redisUrl .Values.secrets.httpsProxy .Values.secrets.httpProxy .Values.secrets.otlpHeaders -}}
{{- include "quire.secretRef" (list $ $ref) -}}
{{- end -}}
{{- end -}}

{{- define "quire.podAnnotations" -}}
{{- $root := index . 0 -}}
checksum/config: {{ include "quire.configData" $root | sha256sum }}
{{- if $root.Values.metrics.scrape }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ index . 1 | quote }}
prometheus.io/path: /metrics
{{- end -}}
{{- end -}}

{{/* The Temporal client certificate's mount and volume, when temporalClientTls.secretName names its Secret. */}}
{{- define "quire.temporalTlsMount" -}}
{{- if .Values.temporalClientTls.secretName }}
- { name: temporal-tls, mountPath: /etc/quire/temporal-tls, readOnly: true }
{{- end -}}
{{- end -}}

{{- define "quire.temporalTlsVolume" -}}
{{- if .Values.temporalClientTls.secretName }}
- name: temporal-tls
  secret:
    secretName: {{ .Values.temporalClientTls.secretName }}
{{- end -}}
{{- end -}}
