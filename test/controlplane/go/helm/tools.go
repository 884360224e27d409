//go:build tools

// Package tools pins helm.sh/helm/v3 in this module so that its command, helm.sh/helm/v3/cmd/helm, is
// built with the versions recorded in go.sum. It lives in its own module so that Helm's dependency
// versions never mix with Kubernetes' or etcd's.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
