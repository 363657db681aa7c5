// peers.cpp: the W1–W4 workloads of bench/ (see bench/workloads_test.go for
// their definitions) on a C++ task scheduler, enkiTS or Taskflow, or as
// plain loops, chosen at compile time with -DPEER_ENKITS, -DPEER_TASKFLOW
// or -DPEER_SERIAL. scripts/peers.sh builds it three times against the
// peers' sources; nothing here is copied from them, only their public APIs
// are used. The impls are named <peer>.cpp: benchtable compares them with
// serial.cpp, the same kernels compiled the same way, so that a ratio never
// mixes Go's and g++'s code for the sequential work.
//
// The binary answers like a Go test binary, so that bench/cmd/benchrun can
// run it beside bench.test and benchtable can read its lines:
//
//	./peer -test.bench=<regexp levels joined by '/'> -test.benchtime=<N>x
//
// It prints "Benchmark<Workload>/<impl>[/<variant>]-<P>  N  ns/op" for
// every benchmark that matches, with P the thread count: GOMAXPROCS from
// the environment (as benchrun sets it), else the hardware's. Each
// benchmark runs one untimed op first, as bench/'s measure does. W3 and W4
// have the forms of bench/'s schedulers (form=1000jobs and form=1range;
// fork=2 and fork=1+inline); serial.cpp has one form of each.
//
// Every peer is used the way its authors show: enkiTS's W2 is one task
// set whose minimum range is the chunk, Taskflow's W1 a graph built once
// and run per batch, Taskflow's W4 its own Fibonacci example (a task
// group, one child inline). The kernels are kept out of line (noinline)
// and scripts/peers.sh compiles without the loop vectoriser, so that no
// loop of serial.cpp does less work than its Go counterpart: inlined into
// serial W3's loop over the middle jobs, g++ ran four xorshift chains at
// once in vector registers, half the time of the work done one job at a
// time.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

// ---- The workloads' parameters and sequential pieces (as workloads_test.go).

constexpr int w1Batch = 4096;
constexpr int w2Len = 4000000;
constexpr int w3Width = 1000;
constexpr int w3Iters = 1450;
constexpr int w4N = 30;
constexpr int64_t w4Want = 832040;
constexpr int fibCutoff = 16;
const int w2Chunks[] = {1024, 16384};

static void (*volatile emptyJob)() = [] {};

// The kernels: never inlined into a caller's loop (see the top).
__attribute__((noinline)) static void scale(float* x, int n) {
    for (int i = 0; i < n; i++) x[i] = x[i] * 1.0001f + 0.5f;
}

__attribute__((noinline)) static uint64_t spin(uint64_t seed) {
    uint64_t x = seed | 1;
    for (int i = 0; i < w3Iters; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

struct Dag {
    uint64_t seed = 0;
    uint64_t slots[w3Width];
    uint64_t sum = 0;
    void root() { seed = 0x9E3779B97F4A7C15ull; }
    void mid(int i) { slots[i] = spin(seed + uint64_t(i)); }
    void join() {
        uint64_t s = 0;
        for (uint64_t v : slots) s += v;
        sum = s;
    }
};

__attribute__((noinline)) static int64_t fibSerial(int n) { return n < 2 ? n : fibSerial(n - 1) + fibSerial(n - 2); }

static void fail(const char* what) {
    std::fprintf(stderr, "peers: %s\n", what);
    std::exit(1);
}

static int threads() {
    const char* p = std::getenv("GOMAXPROCS");
    int n = p ? std::atoi(p) : int(std::thread::hardware_concurrency());
    return n > 0 ? n : 1;
}

// ---- The peers, each a Peer with the four workloads.

#if defined(PEER_ENKITS)
#include "TaskScheduler.h"

// enkiTS with the caller plus threads()-1 task threads; the caller helps in
// its waits.
struct Peer {
    static constexpr const char* name = "enkiTS.cpp";
    static constexpr bool baseline = false;
    enki::TaskScheduler ts;

    struct Empty : enki::ITaskSet {
        void ExecuteRange(enki::TaskSetPartition, uint32_t) override { emptyJob(); }
    };
    std::vector<Empty> empties = std::vector<Empty>(w1Batch);

    explicit Peer(int n) { ts.Initialize(uint32_t(n)); }

    // W1: n empty tasks, then one wait for all of them.
    void emptyJobs(int n) {
        for (int i = 0; i < n; i++) ts.AddTaskSetToPipe(&empties[i]);
        ts.WaitforAll();
    }

    // W2: one task set over the items with the chunk as its minimum range:
    // enkiTS divides the set into ranges of at least that many items.
    struct Scale : enki::ITaskSet {
        float* x = nullptr;
        void ExecuteRange(enki::TaskSetPartition r, uint32_t) override { scale(x + r.start, int(r.end - r.start)); }
    };
    void parallelFor(std::vector<float>& v, int chunk) {
        Scale s;
        s.x = v.data();
        s.m_SetSize = uint32_t(w2Len);
        s.m_MinRange = uint32_t(chunk);
        ts.AddTaskSetToPipe(&s);
        ts.WaitforTask(&s);
    }

    // W3: root, then the middle jobs depending on it (w3Width task sets,
    // or one task set of w3Width items), then a join depending on them,
    // built once per form and re-run per op.
    struct Root : enki::ITaskSet {
        Dag* d = nullptr;
        void ExecuteRange(enki::TaskSetPartition, uint32_t) override { d->root(); }
    };
    struct Mid : enki::ITaskSet {
        Dag* d = nullptr;
        int i = 0;
        enki::Dependency dep;
        void ExecuteRange(enki::TaskSetPartition, uint32_t) override { d->mid(i); }
    };
    struct Mids : enki::ITaskSet {
        Dag* d = nullptr;
        enki::Dependency dep;
        void ExecuteRange(enki::TaskSetPartition r, uint32_t) override {
            for (uint32_t i = r.start; i < r.end; i++) d->mid(int(i));
        }
    };
    struct Join : enki::ITaskSet {
        Dag* d = nullptr;
        std::vector<enki::Dependency> deps;
        void ExecuteRange(enki::TaskSetPartition, uint32_t) override { d->join(); }
    };
    struct Graph {
        Root root;
        std::vector<Mid> mids;
        Mids set;
        Join join;
    };
    Graph jobs, range;  // form=1000jobs, form=1range
    Dag* built[2] = {nullptr, nullptr};
    void wideDAG(Dag& d, bool asRange) {
        Graph& g = asRange ? range : jobs;
        if (built[asRange] != &d) {
            g.root.d = g.join.d = g.set.d = &d;
            if (asRange) {
                g.set.m_SetSize = w3Width;
                g.set.SetDependency(g.set.dep, &g.root);
                g.join.deps.resize(1);
                g.join.SetDependency(g.join.deps[0], &g.set);
            } else {
                g.mids = std::vector<Mid>(w3Width);
                g.join.deps.resize(w3Width);
                for (int i = 0; i < w3Width; i++) {
                    g.mids[i].d = &d;
                    g.mids[i].i = i;
                    g.mids[i].SetDependency(g.mids[i].dep, &g.root);
                    g.join.SetDependency(g.join.deps[i], &g.mids[i]);
                }
            }
            built[asRange] = &d;
        }
        ts.AddTaskSetToPipe(&g.root);
        ts.WaitforTask(&g.join);
    }

    // W4: each call with n >= fibCutoff adds a child task for n-1 and,
    // with inline, computes n-2 itself, else adds a second task; then it
    // waits for its children, running tasks meanwhile.
    struct Fib : enki::ITaskSet {
        Peer* p = nullptr;
        int n = 0;
        bool in = false;
        int64_t out = 0;
        void ExecuteRange(enki::TaskSetPartition, uint32_t) override { out = p->fib(n, in); }
    };
    int64_t fib(int n, bool inl) {
        if (n < fibCutoff) return fibSerial(n);
        Fib a;
        a.p = this;
        a.n = n - 1;
        a.in = inl;
        ts.AddTaskSetToPipe(&a);
        if (inl) {
            int64_t b = fib(n - 2, inl);
            ts.WaitforTask(&a);
            return a.out + b;
        }
        Fib b;
        b.p = this;
        b.n = n - 2;
        ts.AddTaskSetToPipe(&b);
        ts.WaitforTask(&a);
        ts.WaitforTask(&b);
        return a.out + b.out;
    }
};

#elif defined(PEER_TASKFLOW)
#include <map>
#include <taskflow/algorithm/for_each.hpp>
#include <taskflow/taskflow.hpp>

// Taskflow with threads() workers; the caller blocks in its waits. Graphs
// (W1, W2, W3) are built once and run per op, as Taskflow intends.
struct Peer {
    static constexpr const char* name = "taskflow.cpp";
    static constexpr bool baseline = false;
    tf::Executor ex;

    explicit Peer(int n) : ex(size_t(n)) {}

    // W1: a graph of n independent empty tasks (one per batch size seen),
    // run, then waited for.
    std::map<int, tf::Taskflow> w1;
    void emptyJobs(int n) {
        auto [it, fresh] = w1.try_emplace(n);
        if (fresh)
            for (int i = 0; i < n; i++) it->second.emplace([] { emptyJob(); });
        ex.run(it->second).wait();
    }

    // W2: for_each_index over the chunks with the guided partitioner.
    tf::Taskflow w2;
    int w2Chunk = 0;
    void parallelFor(std::vector<float>& v, int chunk) {
        if (w2Chunk != chunk) {
            w2.clear();
            float* x = v.data();
            w2.for_each_index(0, (w2Len + chunk - 1) / chunk, 1, [x, chunk](int k) {
                int lo = k * chunk;
                scale(x + lo, std::min(chunk, w2Len - lo));
            }, tf::GuidedPartitioner());
            w2Chunk = chunk;
        }
        ex.run(w2).wait();
    }

    // W3: root -> w3Width middle tasks (or one for_each_index over them)
    // -> join.
    tf::Taskflow w3[2];
    Dag* built[2] = {nullptr, nullptr};
    void wideDAG(Dag& d, bool asRange) {
        tf::Taskflow& g = w3[asRange];
        if (built[asRange] != &d) {
            Dag* p = &d;
            auto root = g.emplace([p] { p->root(); });
            auto join = g.emplace([p] { p->join(); });
            if (asRange) {
                auto mids = g.for_each_index(0, w3Width, 1, [p](int i) { p->mid(i); });
                root.precede(mids);
                mids.precede(join);
            } else {
                for (int i = 0; i < w3Width; i++) {
                    auto m = g.emplace([p, i] { p->mid(i); });
                    root.precede(m);
                    m.precede(join);
                }
            }
            built[asRange] = &d;
        }
        ex.run(g).wait();
    }

    // W4: each call with n >= fibCutoff forks in a task group: n-1 as a
    // task and n-2 inline (Taskflow's own Fibonacci example) or as a second
    // task, then co-runs until the group is done.
    int64_t fibIn(int n, bool inl) {
        if (n < fibCutoff) return fibSerial(n);
        int64_t a = 0, b = 0;
        tf::TaskGroup tg = ex.task_group();
        tg.silent_async([this, n, inl, &a] { a = fibIn(n - 1, inl); });
        if (inl)
            b = fibIn(n - 2, inl);
        else
            tg.silent_async([this, n, inl, &b] { b = fibIn(n - 2, inl); });
        tg.corun();
        return a + b;
    }
    int64_t fib(int n, bool inl) {
        return ex.async([this, n, inl] { return fibIn(n, inl); }).get();
    }
};

#elif defined(PEER_SERIAL)

// The sequential baseline of the C++ rows: every job called in turn.
struct Peer {
    static constexpr const char* name = "serial.cpp";

    explicit Peer(int) {}
    void emptyJobs(int n) {
        for (int i = 0; i < n; i++) emptyJob();
    }
    void parallelFor(std::vector<float>& v, int chunk) {
        for (int lo = 0; lo < w2Len; lo += chunk) scale(v.data() + lo, std::min(chunk, w2Len - lo));
    }
    void wideDAG(Dag& d, bool) {
        d.root();
        for (int i = 0; i < w3Width; i++) d.mid(i);
        d.join();
    }
    int64_t fib(int n, bool) { return fibSerial(n); }
    static constexpr bool baseline = true;
};

#else
#error "compile with -DPEER_ENKITS, -DPEER_TASKFLOW or -DPEER_SERIAL"
#endif

// ---- The harness: -test.bench matching, timing, Go's result line.

struct Args {
    std::vector<std::regex> levels;  // -test.bench split at '/'
    long n = 1;                      // -test.benchtime=<n>x
};

static Args parse(int argc, char** argv) {
    Args a;
    std::string bench = ".";
    for (int i = 1; i < argc; i++) {
        std::string s = argv[i];
        if (s.rfind("-test.bench=", 0) == 0) bench = s.substr(12);
        if (s.rfind("-test.benchtime=", 0) == 0) {
            std::string t = s.substr(16);
            if (t.empty() || t.back() != 'x') fail("-test.benchtime must be <N>x");
            a.n = std::atol(t.c_str());
        }
    }
    size_t start = 0;
    for (size_t i = 0; i <= bench.size(); i++) {
        if (i == bench.size() || bench[i] == '/') {
            a.levels.emplace_back(bench.substr(start, i - start));
            start = i + 1;
        }
    }
    return a;
}

// matches is Go's rule: level i of the name must contain a match of
// pattern i; levels past the pattern match.
static bool matches(const Args& a, const std::vector<std::string>& name) {
    for (size_t i = 0; i < a.levels.size() && i < name.size(); i++)
        if (!std::regex_search(name[i], a.levels[i])) return false;
    return true;
}

// run times n ops (after one untimed op) and prints the result line.
static void run(const Args& a, std::vector<std::string> name, int perOp, const std::function<void(long)>& ops) {
    if (!matches(a, name)) return;
    ops(perOp);  // warm-up
    auto t0 = std::chrono::steady_clock::now();
    ops(a.n);
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    std::string full;
    for (auto& l : name) full += (full.empty() ? "" : "/") + l;
    std::printf("%s-%d \t%10ld\t%12.1f ns/op\n", full.c_str(), threads(), a.n, ns / double(a.n));
    std::fflush(stdout);
}

int main(int argc, char** argv) {
    Args a = parse(argc, argv);
    Peer p(threads());
    std::string im = Peer::name;
    run(a, {"BenchmarkW1EmptyJobs", im}, w1Batch, [&](long n) {
        for (; n > 0; n -= w1Batch) p.emptyJobs(int(std::min<long>(n, w1Batch)));
    });
    std::vector<float> v(w2Len);
    for (int i = 0; i < w2Len; i++) v[i] = float(i % 1000) / 1000;
    for (int c : w2Chunks)
        run(a, {"BenchmarkW2ParallelFor", im, "chunk=" + std::to_string(c)}, 1, [&](long n) {
            for (long i = 0; i < n; i++) p.parallelFor(v, c);
        });
    Dag d, want;
    want.root();
    for (int i = 0; i < w3Width; i++) want.mid(i);
    want.join();
    // A baseline has one form of W3 and W4, named by the impl alone.
    auto form = [&](const char* w, const char* f) {
        std::vector<std::string> n = {w, im};
        if (!Peer::baseline) n.push_back(f);
        return n;
    };
    for (bool asRange : {false, true}) {
        if (asRange && Peer::baseline) break;
        run(a, form("BenchmarkW3WideDAG", asRange ? "form=1range" : "form=1000jobs"), 1, [&](long n) {
            for (long i = 0; i < n; i++) {
                d.sum = 0;
                p.wideDAG(d, asRange);
                if (d.sum != want.sum) fail("W3: the join's sum is wrong, so a job ran before its dependencies");
            }
        });
    }
    for (bool inl : {false, true}) {
        if (inl && Peer::baseline) break;
        run(a, form("BenchmarkW4Fib", inl ? "fork=1+inline" : "fork=2"), 1, [&](long n) {
            for (long i = 0; i < n; i++)
                if (p.fib(w4N, inl) != w4Want) fail("W4: fib(30) is wrong");
        });
    }
    return 0;
}
