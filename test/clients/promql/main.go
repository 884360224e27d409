// Command promql reads PromQL expressions (a JSON array of strings) on stdin and, parsing each with
// Prometheus' own parser (github.com/prometheus/prometheus/promql/parser), writes on stdout a JSON array
// with, for each expression, the error or every metric it selects and the label names it uses on it
// (in matchers, and in by/without and on/ignoring clauses of the aggregations and operations above it).
// The metrics test checks those against what a running Paddock exports.
//
// `promql -rules FILE` checks a Prometheus rule file instead, with the call `promtool check rules` makes
// (rulefmt.ParseFile: YAML, every expression, every label and annotation template), and prints promtool's
// verdict: "SUCCESS: N rules found", or "FAILED:" and the errors (exit status 1).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

func checkRules(file string) {
	groups, errs := rulefmt.ParseFile(file, false, model.UTF8Validation, parser.NewParser(parser.Options{}), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if errs != nil {
		fmt.Println("FAILED:")
		for _, err := range errs {
			fmt.Println(err)
		}
		os.Exit(1)
	}
	n := 0
	for _, g := range groups.Groups {
		n += len(g.Rules)
	}
	fmt.Printf("SUCCESS: %d rules found\n", n)
}

type selector struct {
	Metric string   `json:"metric"`
	Labels []string `json:"labels"`
}

type result struct {
	Error     string     `json:"error,omitempty"`
	Selectors []selector `json:"selectors"`
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-rules" {
		checkRules(os.Args[2])
		return
	}
	var exprs []string
	if err := json.NewDecoder(os.Stdin).Decode(&exprs); err != nil {
		panic(err)
	}
	p := parser.NewParser(parser.Options{})
	out := make([]result, 0, len(exprs))
	for _, text := range exprs {
		expr, err := p.ParseExpr(text)
		if err != nil {
			out = append(out, result{Error: err.Error(), Selectors: []selector{}})
			continue
		}
		out = append(out, result{Selectors: selectors(expr)})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

// selectors walks the tree; the label names of every grouping above a selector are counted as used on it.
func selectors(expr parser.Expr) []selector {
	var found []selector
	var walk func(node parser.Node, grouping []string)
	walk = func(node parser.Node, grouping []string) {
		switch n := node.(type) {
		case *parser.AggregateExpr:
			grouping = append(append([]string{}, grouping...), n.Grouping...)
		case *parser.BinaryExpr:
			if n.VectorMatching != nil {
				grouping = append(append([]string{}, grouping...), n.VectorMatching.MatchingLabels...)
				grouping = append(grouping, n.VectorMatching.Include...)
			}
		case *parser.VectorSelector:
			names := map[string]bool{}
			for _, l := range grouping {
				names[l] = true
			}
			for _, m := range n.LabelMatchers {
				if m.Name != labels.MetricName {
					names[m.Name] = true
				}
			}
			list := []string{}
			for l := range names {
				list = append(list, l)
			}
			sort.Strings(list)
			found = append(found, selector{Metric: n.Name, Labels: list})
		}
		for _, child := range parser.Children(node) {
			walk(child, grouping)
		}
	}
	walk(expr, nil)
	return found
}
