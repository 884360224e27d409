// Command go-informer runs a client-go dynamic shared informer on tenancy.paddock.dev/v1alpha1
// tenantnamespaces and reports what it sees as JSON lines on stdout, one per line:
//
//	{"event":"request","method":"GET","path":"/apis/...","query":"...","status":200}   each request sent, once answered
//	{"event":"synced","watchList":true}                                    once the handler has synced
//	{"event":"add"|"update"|"delete","name":"...","tenant":"...","resourceVersion":"...","phase":"...","labels":{...}}
//
// An update whose object equals the one it replaces but for its resourceVersion carries "same":true (an
// event that told the informer nothing). With --metadata it runs a metadata informer instead (the
// PartialObjectMetadata lists and watches of kube-controller-manager's garbage collector and quota
// controller); its rows carry no tenant or phase.
//
// Whether the reflector lists then watches, or asks for a WatchList stream (sendInitialEvents=true),
// is client-go's WatchListClient feature gate, read from the environment variable
// KUBE_FEATURE_WatchListClient (on by default since client-go v0.35). The "request" lines let a test
// check which of the two really happened on the wire.
//
// It exits when stdin closes (its parent went away) or on SIGTERM/SIGINT.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

var tenantNamespaces = schema.GroupVersionResource{Group: "tenancy.paddock.dev", Version: "v1alpha1", Resource: "tenantnamespaces"}

// emitter writes one JSON object per line; event handlers and the main goroutine share it.
type emitter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (e *emitter) emit(v map[string]any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.enc.Encode(v); err != nil {
		fmt.Fprintf(os.Stderr, "write event: %v\n", err)
		os.Exit(1)
	}
}

// recordingTransport reports every request the informer makes, so the mode (list+watch or WatchList)
// is observed rather than assumed.
type recordingTransport struct {
	next http.RoundTripper
	out  *emitter
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	event := map[string]any{"event": "request", "method": req.Method, "path": req.URL.Path, "query": req.URL.RawQuery}
	if err != nil {
		event["error"] = err.Error()
	} else {
		event["status"] = resp.StatusCode
	}
	t.out.emit(event)
	return resp, err
}

func rowEvent(event string, obj any) map[string]any {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		return map[string]any{"event": event, "name": m.GetName(), "resourceVersion": m.GetResourceVersion(), "labels": m.GetLabels(), "kind": m.Kind}
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return map[string]any{"event": event, "error": fmt.Sprintf("unexpected object %T", obj)}
	}
	tenant, _, _ := unstructured.NestedString(u.Object, "spec", "tenant")
	phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
	return map[string]any{
		"event": event, "name": u.GetName(), "tenant": tenant, "resourceVersion": u.GetResourceVersion(),
		"phase": phase, "labels": u.GetLabels(),
	}
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "path of the kubeconfig to use")
	metadataOnly := flag.Bool("metadata", false, "run a metadata informer (PartialObjectMetadata) instead of a dynamic one")
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "usage: go-informer --kubeconfig <path>")
		os.Exit(2)
	}

	out := &emitter{enc: json.NewEncoder(os.Stdout)}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "load kubeconfig: %v\n", err)
		os.Exit(1)
	}
	config.UserAgent = "paddock-test-go-informer"
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &recordingTransport{next: rt, out: out} })
	informer, shutdown, err := newInformer(config, *metadataOnly)
	if err != nil {
		fmt.Fprintf(os.Stderr, "client: %v\n", err)
		os.Exit(1)
	}

	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()

	registration, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { out.emit(rowEvent("add", obj)) },
		UpdateFunc: func(old, obj any) {
			event := rowEvent("update", obj)
			if sameButResourceVersion(old, obj) {
				event["same"] = true
			}
			out.emit(event)
		},
		DeleteFunc: func(obj any) { out.emit(rowEvent("delete", obj)) },
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "add event handler: %v\n", err)
		os.Exit(1)
	}
	go informer.Run(ctx.Done())
	// The registration has synced once this handler has been given every object of the initial state.
	if !cache.WaitForCacheSync(ctx.Done(), registration.HasSynced) {
		os.Exit(1)
	}
	out.emit(map[string]any{"event": "synced", "watchList": clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient)})
	<-ctx.Done()
	shutdown()
}

// newInformer makes the informer on tenantnamespaces: dynamic (whole objects) or metadata-only.
func newInformer(config *rest.Config, metadataOnly bool) (cache.SharedIndexInformer, func(), error) {
	if metadataOnly {
		client, err := metadata.NewForConfig(config)
		if err != nil {
			return nil, nil, err
		}
		factory := metadatainformer.NewSharedInformerFactory(client, 0)
		return factory.ForResource(tenantNamespaces).Informer(), factory.Shutdown, nil
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, nil, err
	}
	factory := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	return factory.ForResource(tenantNamespaces).Informer(), factory.Shutdown, nil
}

// sameButResourceVersion tells whether two states of a row differ only in their resourceVersion.
func sameButResourceVersion(old, obj any) bool {
	a, errA := meta.Accessor(old)
	b, errB := meta.Accessor(obj)
	if errA != nil || errB != nil {
		return false
	}
	strip := func(o any, rv string) any {
		switch t := o.(type) {
		case *unstructured.Unstructured:
			c := t.DeepCopy()
			c.SetResourceVersion(rv)
			return c
		case *metav1.PartialObjectMetadata:
			c := t.DeepCopy()
			c.SetResourceVersion(rv)
			return c
		}
		return o
	}
	return equality.Semantic.DeepEqual(strip(old, ""), strip(obj, "")) && a.GetResourceVersion() != b.GetResourceVersion()
}
