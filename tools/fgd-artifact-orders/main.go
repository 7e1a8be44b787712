// fgd-artifact-orders writes fill order files (docs/scenario-format.md#fill-order-files) holding
// the arrival order and node tie rank that the FGD paper's artifact draws for each seed, so that
// `fleetsim fill --orders DIR` replays the artifact's very runs (docs/validation.md, "The
// artifact's own arrivals"). It makes the artifact's random calls, in the artifact's order, with
// Go's own math/rand (whose streams C++ cannot reproduce): seed; one discarded Int; the
// name-sorted pod list shuffled; copies drawn with Intn from the name-sorted list while the next
// pick's per-GPU share keeps the total within 130 % of GPU capacity (or, for a list already above
// it, random pods removed until it is within); then a permutation of the name-sorted nodes, whose
// value is each node's tie rank. Research tool: needs Go (Debian: golang-go); not built by CI.
//
// Usage: go run . -pods POD_LIST.csv -nodes NODE_LIST.csv -name SCENARIO -out DIR [-first 42] [-seeds 10]
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

type pod struct {
	name      string
	gpuMilli  int64 // per GPU
	gpuNumber int64
}

func (p pod) demand() int64 { return p.gpuMilli * p.gpuNumber }

func readRows(path string) ([]map[string]string, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	rows, err := csv.NewReader(file).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty file", path)
	}
	var out []map[string]string
	for _, row := range rows[1:] {
		record := map[string]string{}
		for i, column := range rows[0] {
			if i < len(row) {
				record[column] = row[i]
			}
		}
		out = append(out, record)
	}
	return out, nil
}

// readPods: a pod's GPU share as the trace's pod converter writes it (no gpu_milli column: whole GPUs).
func readPods(path string) ([]pod, error) {
	rows, err := readRows(path)
	if err != nil {
		return nil, err
	}
	var pods []pod
	for line, row := range rows {
		number, err := strconv.ParseInt(row["num_gpu"], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: num_gpu: %v", path, line+2, err)
		}
		p := pod{name: row["name"], gpuNumber: number}
		if number > 0 {
			p.gpuMilli = 1000
			if text, ok := row["gpu_milli"]; ok {
				milli, err := strconv.ParseFloat(text, 64)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: gpu_milli: %v", path, line+2, err)
				}
				if milli <= 1000 {
					p.gpuMilli = int64(milli)
				}
			}
		}
		pods = append(pods, p)
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].name < pods[j].name })
	return pods, nil
}

func readNodes(path string) ([]string, int64, error) {
	rows, err := readRows(path)
	if err != nil {
		return nil, 0, err
	}
	var names []string
	var capacity int64
	for line, row := range rows {
		gpus, err := strconv.ParseInt(row["gpu"], 10, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: gpu: %v", path, line+2, err)
		}
		names = append(names, row["sn"])
		capacity += 1000 * gpus
	}
	sort.Strings(names)
	return names, capacity, nil
}

// arrivals: indices into pods (name-sorted), as the artifact's shuffle and tuning leave them.
func arrivals(pods []pod, capacity int64, share float64) []int {
	list := make([]int, len(pods))
	var total int64
	for i := range list {
		list[i] = i
		total += pods[i].demand()
	}
	rand.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	target := share * float64(capacity)
	for float64(total) > target {
		k := rand.Intn(len(list))
		total -= pods[list[k]].demand()
		list = append(list[:k], list[k+1:]...)
	}
	if float64(total) < target {
		for {
			k := rand.Intn(len(pods))
			if float64(total+pods[k].gpuMilli) > target {
				break
			}
			total += pods[k].demand()
			list = append(list, k)
		}
	}
	return list
}

func writeOrder(path string, pods []pod, list []int, nodes []string, rank []int) error {
	file, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	w := csv.NewWriter(file)
	w.Write([]string{"kind", "name", "rank"})
	for _, k := range list {
		w.Write([]string{"pod", pods[k].name})
	}
	for i, name := range nodes {
		w.Write([]string{"node", name, strconv.Itoa(rank[i])})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

func main() {
	podsPath := flag.String("pods", "", "openb pod list (CSV)")
	nodesPath := flag.String("nodes", "", "openb GPU node list (CSV)")
	name := flag.String("name", "", "fill scenario name, as in its JSON")
	out := flag.String("out", "", "directory for the order files")
	first := flag.Int64("first", 42, "first seed")
	seeds := flag.Int64("seeds", 10, "number of seeds")
	share := flag.Float64("share", 1.3, "target share of GPU capacity")
	flag.Parse()
	if *podsPath == "" || *nodesPath == "" || *name == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: fgd-artifact-orders -pods CSV -nodes CSV -name SCENARIO -out DIR [-first 42] [-seeds 10]")
		os.Exit(2)
	}
	pods, err := readPods(*podsPath)
	if err == nil && len(pods) == 0 {
		err = fmt.Errorf("%s: no pods", *podsPath)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nodes, capacity, err := readNodes(*nodesPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for seed := *first; seed < *first+*seeds; seed++ {
		rand.Seed(seed)
		rand.Int() // the artifact logs one draw right after seeding
		list := arrivals(pods, capacity, *share)
		rank := rand.Perm(len(nodes))
		path := filepath.Join(*out, fmt.Sprintf("%s-%d.csv", *name, seed))
		if err := writeOrder(path, pods, list, nodes, rank); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
