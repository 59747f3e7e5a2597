/* nothreads.h — forced include for contourpy and kiwisolver on wasm32-wasi.
 *
 * The libc++ of the bundle is built without threads (_LIBCPP_HAS_NO_THREADS:
 * WASI has none), so <mutex>, <condition_variable> and <thread> declare no
 * std::mutex, std::recursive_mutex, std::unique_lock, std::condition_variable
 * or std::thread. kiwisolver guards its solver with a recursive mutex (for
 * free-threaded Python); contourpy's "threaded" algorithm uses them, but with one hardware thread
 * (std::thread::hardware_concurrency() == 1 here) it never starts a worker:
 * the calling thread does all chunks, the barrier is passed at once and the
 * locks are uncontended. These single-threaded stand-ins make that code
 * compile; starting a real thread aborts. */
#ifndef PYBOX_NOTHREADS_H
#define PYBOX_NOTHREADS_H
#ifdef __cplusplus
#include <cstddef>
#include <cstdlib>
#if defined(_LIBCPP_HAS_NO_THREADS)
#include <mutex>
#include <condition_variable>
#include <thread>
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
  explicit unique_lock(M &m) : m_(&m) { m_->lock(); }
  ~unique_lock() { m_->unlock(); }
  unique_lock(const unique_lock &) = delete;
  unique_lock &operator=(const unique_lock &) = delete;
private:
  M *m_;
};
class condition_variable {
public:
  void notify_all() {}
  void notify_one() {}
  /* Waiting on a single thread could never be woken: abort. */
  template <class L> void wait(L &) { ::abort(); }
};
class thread {
public:
  thread() = default;
  template <class F, class... A> explicit thread(F &&, A &&...) { ::abort(); }
  void join() {}
  static unsigned hardware_concurrency() { return 1; }
};
_LIBCPP_END_NAMESPACE_STD
#endif
#endif
#endif
