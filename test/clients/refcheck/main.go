// Command refcheck parses image references as kubelet does and reports, for each, the repository name it
// pulls or why it would not pull it: the oracle for Paddock's image-reference rules.
//
// Input on stdin: a JSON array of strings. Output on stdout: a JSON array of the same length, in order,
// each {"ref": "...", "name": "docker.io/library/nginx"} or {"ref": "...", "error": "..."}.
//
// kubelet reads an image with reference.ParseNormalizedNamed (pkg/util/parsers.ParseImageName) and
// refuses to pull one it cannot parse; the name is what it pulls, without tag or digest. A digest is
// valid only for an algorithm whose hash is linked into the binary: kubelet links sha256 and sha512
// (which also provides sha384), and so does this program.
package main

import (
	_ "crypto/sha256"
	_ "crypto/sha512"
	"encoding/json"
	"fmt"
	"os"

	"github.com/distribution/reference"
)

type result struct {
	Ref   string `json:"ref"`
	Name  string `json:"name,omitempty"`
	Error string `json:"error,omitempty"`
}

func main() {
	var refs []string
	if err := json.NewDecoder(os.Stdin).Decode(&refs); err != nil {
		fmt.Fprintln(os.Stderr, "refcheck: stdin must be a JSON array of strings:", err)
		os.Exit(2)
	}
	out := make([]result, len(refs))
	for i, ref := range refs {
		out[i].Ref = ref
		if named, err := reference.ParseNormalizedNamed(ref); err != nil {
			out[i].Error = err.Error()
		} else {
			out[i].Name = named.Name()
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "refcheck:", err)
		os.Exit(1)
	}
}
