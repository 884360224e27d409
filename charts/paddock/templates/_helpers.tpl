{{/*
Labels every object of the chart carries: the two apiservice/ sets (kustomize `labels`), plus the release's.
Not app.kubernetes.io/managed-by: the shipped tenant roles carry managed-by=paddock (Paddock repairs them).
*/}}
{{- define "paddock.labels" -}}
app.kubernetes.io/name: paddock
app.kubernetes.io/part-of: paddock
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{/* The pods' labels, and the selector of the Deployment, Service and PodDisruptionBudget (immutable). */}}
{{- define "paddock.selectorLabels" -}}
app.kubernetes.io/name: paddock
app.kubernetes.io/component: server
{{- end }}

{{/*
The namespace is part of the product contract (SPEC §1): the cordon fence names Paddock's ServiceAccount
as system:serviceaccount:paddock-system:paddock, and the serving certificate names
paddock-apiserver.paddock-system.svc. Installing elsewhere would leave both wrong, so it is refused.
*/}}
{{- define "paddock.namespace" -}}
{{- if ne .Release.Namespace "paddock-system" -}}
{{- fail (printf "Paddock runs in the namespace paddock-system (its ServiceAccount and serving certificate name it); install with --namespace paddock-system, not %s" .Release.Namespace) -}}
{{- end -}}
paddock-system
{{- end }}

{{- define "paddock.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end }}

{{/* The Secret the serving certificate is read from (cert-manager, existing-secret) or kept in (self-managed). */}}
{{- define "paddock.servingCertSecret" -}}
{{- if eq .Values.servingCert.mode "existing-secret" -}}
{{ required "servingCert.existingSecret.name is required with servingCert.mode=existing-secret" .Values.servingCert.existingSecret.name }}
{{- else -}}
paddock-serving-cert
{{- end -}}
{{- end }}
