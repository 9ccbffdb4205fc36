// The registry of held state memory (hold.hpp). One mutex guards a short list of the holds in force
// (one per native call running, plus Engine.locked() scopes); a call whose ranges overlap another
// thread's hold waits on a condition variable with the GIL released, so the holder (which may need
// the GIL to finish) always can.
#include "hold.hpp"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common.hpp"

namespace tw16::bind {
namespace {

struct Held {
    uint64_t id;
    std::thread::id owner;
    std::vector<Hold::Span> spans;
};

struct Registry {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Held> held;
    uint64_t next_id = 1;
};

// A fork (the vector envs' workers) copies the registry with the other threads' holds in it, but not
// the threads: the child keeps only its own thread's holds, in a fresh registry (the old mutex may be
// mid-use by a thread that does not exist there).
Registry* registry_ptr = nullptr;

void before_fork() { registry_ptr->mu.lock(); }
void after_fork_parent() { registry_ptr->mu.unlock(); }
void after_fork_child() {
    Registry* old = registry_ptr;  // (its mutex stays locked: abandoned, never used again)
    auto* fresh = new Registry;
    fresh->next_id = old->next_id;
    for (const Held& h : old->held)
        if (h.owner == std::this_thread::get_id()) fresh->held.push_back(h);
    registry_ptr = fresh;
}

Registry& registry() {
    static Registry* r = [] {
        registry_ptr = new Registry;  // (never freed: holds may be released during interpreter exit)
        pthread_atfork(before_fork, after_fork_parent, after_fork_child);
        return registry_ptr;
    }();
    (void)r;
    return *registry_ptr;
}

bool overlaps(const std::vector<Hold::Span>& a, const std::vector<Hold::Span>& b) {
    for (const auto& x : a)
        for (const auto& y : b)
            if (x.lo < y.hi && y.lo < x.hi) return true;
    return false;
}

bool free_for(const Registry& r, const std::vector<Hold::Span>& spans, std::thread::id me) {
    for (const Held& h : r.held)
        if (h.owner != me && overlaps(spans, h.spans)) return false;
    return true;
}

}  // namespace

void Hold::add(const State& S) {
#define TW16_HOLD(name_, type_, rank_, shape_, fill_, writable_) \
    if (writable_) add(S.name_);
    TW16_STATE_FIELDS(TW16_HOLD)
#undef TW16_HOLD
}

uint64_t hold_spans(const std::vector<Hold::Span>& spans) {
    const std::thread::id me = std::this_thread::get_id();
    Registry& r = registry();
    std::unique_lock<std::mutex> lk(r.mu);
    if (!free_for(r, spans, me)) {
        // Wait without the GIL (the holder may need it to finish); take the GIL back only after
        // letting go of the registry's mutex (never wait for the GIL while holding it).
        lk.unlock();
        PyThreadState* ts = PyGILState_Check() ? PyEval_SaveThread() : nullptr;
        lk.lock();
        r.cv.wait(lk, [&] { return free_for(r, spans, me); });
        const uint64_t id = r.next_id++;
        r.held.push_back({id, me, spans});
        lk.unlock();
        if (ts) PyEval_RestoreThread(ts);
        return id;
    }
    const uint64_t id = r.next_id++;
    r.held.push_back({id, me, spans});
    return id;
}

void release_hold(uint64_t id) {
    Registry& r = registry();
    {
        std::lock_guard<std::mutex> lk(r.mu);
        auto it = std::find_if(r.held.begin(), r.held.end(), [&](const Held& h) { return h.id == id; });
        if (it != r.held.end()) r.held.erase(it);
    }
    r.cv.notify_all();
}

void Hold::acquire() {
    if (id_ == 0 && !spans_.empty()) id_ = hold_spans(spans_);
}

void Hold::release() {
    if (id_ != 0) release_hold(id_);
    id_ = 0;
}

}  // namespace tw16::bind
