//go:build tools

// Package tools pins github.com/prometheus/prometheus in this module so that its command,
// github.com/prometheus/prometheus/cmd/promtool, is built with the versions recorded in go.sum.
package tools

import _ "github.com/prometheus/prometheus/cmd/promtool"
