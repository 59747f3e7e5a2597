/* nothreads.h — forced include for C++ that names thread primitives, on
 * wasm32-wasi (contourpy and kiwisolver, scipy's HiGHS and
 * fast_matrix_market).
 *
 * The libc++ of the bundle is built without threads (_LIBCPP_HAS_NO_THREADS:
 * WASI has none), so <mutex>, <condition_variable>, <thread> and <future>
 * declare no std::mutex, std::unique_lock, std::condition_variable,
 * std::thread, std::this_thread, std::future or std::packaged_task.
 * The code using them sizes its worker pools by
 * std::thread::hardware_concurrency(), which is 1 here: kiwisolver guards its
 * solver with a recursive mutex (for free-threaded Python); contourpy's
 * "threaded" algorithm and HiGHS's task executor then start no worker (the
 * calling thread runs every task, locks are uncontended). These are
 * single-threaded versions with the standard semantics for one thread:
 * locks that are never contended, a future whose task has already run
 * (std::packaged_task runs when called, on the caller's thread), sleeping
 * through nanosleep. What needs a second thread reports the error a real
 * library reports when it cannot have one: constructing a std::thread throws
 * std::system_error (EAGAIN, as when pthread_create fails), and waiting on a
 * condition variable that nothing else can notify throws
 * std::system_error (EDEADLK) instead of hanging. */
#ifndef PYBOX_NOTHREADS_H
#define PYBOX_NOTHREADS_H
#ifdef __cplusplus
#include <cstddef>
#include <cstdlib>
#if defined(_LIBCPP_HAS_NO_THREADS)
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <time.h>
#include <type_traits>
#include <utility>
_LIBCPP_BEGIN_NAMESPACE_STD
class mutex {
public:
  void lock() {}
  void unlock() {}
  bool try_lock() { return true; }
};
class recursive_mutex {
public:
  void lock() {}
  void unlock() {}
  bool try_lock() { return true; }
};
template <class M> class unique_lock {
public:
  typedef M mutex_type;
  unique_lock() noexcept : m_(nullptr), owns_(false) {}
  explicit unique_lock(M &m) : m_(&m), owns_(true) { m_->lock(); }
  unique_lock(M &m, defer_lock_t) noexcept : m_(&m), owns_(false) {}
  unique_lock(M &m, try_to_lock_t) : m_(&m), owns_(m.try_lock()) {}
  unique_lock(M &m, adopt_lock_t) : m_(&m), owns_(true) {}
  ~unique_lock() {
    if (owns_) m_->unlock();
  }
  unique_lock(const unique_lock &) = delete;
  unique_lock &operator=(const unique_lock &) = delete;
  unique_lock(unique_lock &&o) noexcept : m_(o.m_), owns_(o.owns_) {
    o.m_ = nullptr;
    o.owns_ = false;
  }
  unique_lock &operator=(unique_lock &&o) noexcept {
    if (owns_) m_->unlock();
    m_ = o.m_;
    owns_ = o.owns_;
    o.m_ = nullptr;
    o.owns_ = false;
    return *this;
  }
  void lock() {
    m_->lock();
    owns_ = true;
  }
  bool try_lock() { return owns_ = m_->try_lock(); }
  void unlock() {
    m_->unlock();
    owns_ = false;
  }
  M *release() noexcept {
    M *m = m_;
    m_ = nullptr;
    owns_ = false;
    return m;
  }
  void swap(unique_lock &o) noexcept {
    std::swap(m_, o.m_);
    std::swap(owns_, o.owns_);
  }
  bool owns_lock() const noexcept { return owns_; }
  explicit operator bool() const noexcept { return owns_; }
  M *mutex() const noexcept { return m_; }

private:
  M *m_;
  bool owns_;
};

namespace this_thread {
inline void yield() noexcept {}
template <class Rep, class Period>
void sleep_for(const chrono::duration<Rep, Period> &d) {
  if (d <= d.zero()) return;
  long long ns = chrono::duration_cast<chrono::nanoseconds>(d).count();
  struct timespec ts;
  ts.tv_sec = static_cast<time_t>(ns / 1000000000);
  ts.tv_nsec = static_cast<long>(ns % 1000000000);
  while (::nanosleep(&ts, &ts) == -1 && errno == EINTR) {
  }
}
template <class Clock, class Dur>
void sleep_until(const chrono::time_point<Clock, Dur> &t) {
  auto now = Clock::now();
  if (t > now) sleep_for(t - now);
}
} // namespace this_thread

enum class cv_status { no_timeout, timeout };
class condition_variable {
public:
  void notify_all() noexcept {}
  void notify_one() noexcept {}
  /* Nothing else runs to notify: waiting forever is a deadlock. */
  template <class L> void wait(L &) {
    __throw_system_error(EDEADLK, "condition_variable::wait with no other thread (pybox: single-threaded)");
  }
  template <class L, class P> void wait(L &l, P pred) {
    if (!pred()) wait(l);
  }
  template <class L, class Rep, class Period>
  cv_status wait_for(L &, const chrono::duration<Rep, Period> &d) {
    this_thread::sleep_for(d);
    return cv_status::timeout;
  }
  template <class L, class Rep, class Period, class P>
  bool wait_for(L &l, const chrono::duration<Rep, Period> &d, P pred) {
    if (pred()) return true;
    wait_for(l, d);
    return pred();
  }
  template <class L, class Clock, class Dur>
  cv_status wait_until(L &, const chrono::time_point<Clock, Dur> &t) {
    this_thread::sleep_until(t);
    return cv_status::timeout;
  }
  template <class L, class Clock, class Dur, class P>
  bool wait_until(L &l, const chrono::time_point<Clock, Dur> &t, P pred) {
    if (pred()) return true;
    wait_until(l, t);
    return pred();
  }
};

class thread {
public:
  class id {
  public:
    id() noexcept {}
    friend bool operator==(id, id) noexcept { return true; }
    friend bool operator!=(id, id) noexcept { return false; }
    friend bool operator<(id, id) noexcept { return false; }
  };
  thread() noexcept = default;
  thread(thread &&) noexcept = default;
  thread &operator=(thread &&) noexcept = default;
  template <class F, class... A> explicit thread(F &&, A &&...) {
    __throw_system_error(EAGAIN, "std::thread: no threads on wasm32-wasi (pybox)");
  }
  /* A thread object never runs anything here, so it is never joinable. */
  bool joinable() const noexcept { return false; }
  void join() {}
  void detach() {}
  id get_id() const noexcept { return id(); }
  static unsigned hardware_concurrency() noexcept { return 1; }
};
namespace this_thread {
inline thread::id get_id() noexcept { return thread::id(); }
} // namespace this_thread

/* std::future and std::packaged_task for one thread: a task runs when it is
 * called, so a future obtained from it is ready once the call returned. A
 * future whose result was never set could only be waited on forever:
 * get()/wait() then throw std::logic_error (a real library blocks). */
enum class future_status { ready, timeout, deferred };
template <class R> struct __pybox_future_state {
  unique_ptr<R> value;
  exception_ptr exc;
  bool ready = false;
  template <class F> void run(F &f) { value.reset(new R(f())); }
  R take() { return std::move(*value); }
};
template <> struct __pybox_future_state<void> {
  exception_ptr exc;
  bool ready = false;
  template <class F> void run(F &f) { f(); }
  void take() {}
};
template <class R> class future {
public:
  typedef __pybox_future_state<R> state;
  future() noexcept = default;
  explicit future(shared_ptr<state> s) noexcept : s_(std::move(s)) {}
  future(future &&) noexcept = default;
  future &operator=(future &&) noexcept = default;
  future(const future &) = delete;
  future &operator=(const future &) = delete;
  bool valid() const noexcept { return bool(s_); }
  void wait() const { check(); }
  template <class Rep, class Period>
  future_status wait_for(const chrono::duration<Rep, Period> &) const {
    check();
    return future_status::ready;
  }
  template <class Clock, class Dur>
  future_status wait_until(const chrono::time_point<Clock, Dur> &) const {
    check();
    return future_status::ready;
  }
  R get() {
    check();
    shared_ptr<state> s = std::move(s_);
    if (s->exc) rethrow_exception(s->exc);
    return s->take();
  }

private:
  void check() const {
    if (!s_) __throw_logic_error("std::future: no state");
    if (!s_->ready) __throw_logic_error("std::future: result never set and no other thread to set it (pybox: single-threaded)");
  }
  shared_ptr<state> s_;
};

template <class> class packaged_task;
template <class R, class... A> class packaged_task<R(A...)> {
  struct fn {
    virtual ~fn() {}
    virtual R call(A... a) = 0;
  };
  template <class F> struct fn_impl : fn {
    F f;
    template <class G> explicit fn_impl(G &&g) : f(std::forward<G>(g)) {}
    R call(A... a) override { return static_cast<R>(f(std::forward<A>(a)...)); }
  };

public:
  packaged_task() noexcept = default;
  template <class F, class = typename enable_if<!is_same<typename decay<F>::type, packaged_task>::value>::type>
  explicit packaged_task(F &&f)
      : f_(new fn_impl<typename decay<F>::type>(std::forward<F>(f))), s_(make_shared<__pybox_future_state<R> >()) {}
  packaged_task(packaged_task &&) noexcept = default;
  packaged_task &operator=(packaged_task &&) noexcept = default;
  packaged_task(const packaged_task &) = delete;
  packaged_task &operator=(const packaged_task &) = delete;
  bool valid() const noexcept { return bool(s_); }
  void swap(packaged_task &o) noexcept {
    std::swap(f_, o.f_);
    std::swap(s_, o.s_);
    std::swap(got_, o.got_);
  }
  future<R> get_future() {
    if (!s_ || got_) __throw_logic_error("std::packaged_task::get_future: no state or already retrieved");
    got_ = true;
    return future<R>(s_);
  }
  void operator()(A... a) {
    if (!s_ || s_->ready) __throw_logic_error("std::packaged_task: no state or already called");
    auto call = [&]() -> R { return f_->call(std::forward<A>(a)...); };
#ifndef _LIBCPP_HAS_NO_EXCEPTIONS
    try {
      s_->run(call);
    } catch (...) {
      s_->exc = current_exception();
    }
#else
    s_->run(call);
#endif
    s_->ready = true;
  }
  void reset() {
    if (!f_) __throw_logic_error("std::packaged_task::reset: no state");
    s_ = make_shared<__pybox_future_state<R> >();
    got_ = false;
  }

private:
  unique_ptr<fn> f_;
  shared_ptr<__pybox_future_state<R> > s_;
  bool got_ = false;
};
_LIBCPP_END_NAMESPACE_STD
#endif
#endif
#endif
