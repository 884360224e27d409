// vap-cost times one ValidatingAdmissionPolicy on one request with kube-apiserver's own code: the policy
// compiled as kube-apiserver compiles it (k8s.io/apiserver admission/plugin/policy/validating
// compilePolicy: the composited compiler, its variables, validations, match conditions and message
// expressions, the same CEL environment) and run with Validator.Validate — the validation, message and
// audit-annotation passes, each over its own activation. What it leaves out (matching the bindings,
// the parameter lookup) is the same for every policy bound alike.
//
//	vap-cost <policy.json> <pod.json> <params.json>   (N=<runs>, PROFILE=<cpu profile file>)
//
// It prints the decision when the pod is refused, then CPU per request (garbage collection included),
// the median and fastest tenth of the runs' wall times, and allocations per request.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"syscall"
	"time"

	admv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func readJSON(path string, into any) {
	b, err := os.ReadFile(path)
	must(err)
	must(json.Unmarshal(b, into))
}

// compile builds the validator as kube-apiserver's compilePolicy does (policy/validating/plugin.go).
func compile(policy *admv1.ValidatingAdmissionPolicy) validating.Validator {
	withAuthorizer := cel.OptionalVariableDeclarations{HasParams: policy.Spec.ParamKind != nil, HasAuthorizer: true}
	forMessages := cel.OptionalVariableDeclarations{HasParams: policy.Spec.ParamKind != nil, HasAuthorizer: false}
	c, err := cel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	must(err)
	variables := []cel.NamedExpressionAccessor{}
	for _, v := range policy.Spec.Variables {
		variables = append(variables, &validating.Variable{Name: v.Name, Expression: v.Expression})
	}
	c.CompileAndStoreVariables(variables, withAuthorizer, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if len(policy.Spec.MatchConditions) > 0 {
		conditions := []cel.ExpressionAccessor{}
		for i := range policy.Spec.MatchConditions {
			conditions = append(conditions, (*matchconditions.MatchCondition)(&policy.Spec.MatchConditions[i]))
		}
		matcher = matchconditions.NewMatcher(c.CompileCondition(conditions, withAuthorizer, environment.StoredExpressions), policy.Spec.FailurePolicy, "policy", "validate", policy.Name)
	}
	validations, messages := []cel.ExpressionAccessor{}, []cel.ExpressionAccessor{}
	for _, v := range policy.Spec.Validations {
		validations = append(validations, &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason})
		var message cel.ExpressionAccessor
		if v.MessageExpression != "" {
			message = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
		messages = append(messages, message)
	}
	validationFilter := c.CompileCondition(validations, withAuthorizer, environment.StoredExpressions)
	messageFilter := c.CompileCondition(messages, forMessages, environment.StoredExpressions)
	for _, e := range append(validationFilter.CompilationErrors(), messageFilter.CompilationErrors()...) {
		must(e)
	}
	return validating.NewValidator(validationFilter, matcher, c.CompileCondition(nil, withAuthorizer, environment.StoredExpressions), messageFilter, policy.Spec.FailurePolicy, nil)
}

func main() {
	if len(os.Args) != 4 {
		must(fmt.Errorf("usage: vap-cost <policy.json> <pod.json> <params.json>"))
	}
	var policy admv1.ValidatingAdmissionPolicy
	var pod corev1.Pod
	params := &unstructured.Unstructured{}
	readJSON(os.Args[1], &policy)
	readJSON(os.Args[2], &pod)
	readJSON(os.Args[3], &params.Object)
	runs := 3000
	if n, err := strconv.Atoi(os.Getenv("N")); err == nil && n > 0 {
		runs = n
	}

	v := compile(&policy)
	ns := &corev1.Namespace{}
	ns.Name = pod.Namespace
	gvk := corev1.SchemeGroupVersion.WithKind("Pod")
	gvr := corev1.SchemeGroupVersion.WithResource("pods")
	attr := admission.NewAttributesRecord(&pod, nil, gvk, pod.Namespace, pod.Name, gvr, "", admission.Create, nil, true, &user.DefaultInfo{Name: "owner"})
	request := &admission.VersionedAttributes{Attributes: attr, VersionedKind: gvk, VersionedObject: &pod}
	validate := func() validating.ValidateResult {
		return v.Validate(context.Background(), gvr, request, params, ns, celconfig.RuntimeCELCostBudget, nil)
	}
	for _, d := range validate().Decisions {
		if d.Action != validating.ActionAdmit {
			fmt.Printf("%s: %s\n", d.Action, d.Message)
		}
	}

	if path := os.Getenv("PROFILE"); path != "" {
		f, err := os.Create(path)
		must(err)
		must(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	times := make([]time.Duration, 0, runs)
	runtime.GC()
	var mem0, mem1 runtime.MemStats
	var cpu0, cpu1 syscall.Rusage
	runtime.ReadMemStats(&mem0)
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &cpu0))
	for i := 0; i < runs; i++ {
		start := time.Now()
		validate()
		times = append(times, time.Since(start))
	}
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &cpu1))
	runtime.ReadMemStats(&mem1)
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	cpu := time.Duration(cpu1.Utime.Nano() + cpu1.Stime.Nano() - cpu0.Utime.Nano() - cpu0.Stime.Nano())
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	fmt.Printf("%s: CPU %.1f µs per request, wall p50 %.1f µs, p10 %.1f µs, %d allocations (%d B) per request\n",
		os.Args[1], us(cpu)/float64(runs), us(times[runs/2]), us(times[runs/10]), (mem1.Mallocs-mem0.Mallocs)/uint64(runs), (mem1.TotalAlloc-mem0.TotalAlloc)/uint64(runs))
}
