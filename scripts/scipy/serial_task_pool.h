/* serial_task_pool.h — forced include for scipy's C++ on wasm32-wasi: a
 * task_thread_pool (fast_matrix_market's thirdparty/task_thread_pool.hpp,
 * used by scipy.io.mmread/mmwrite) that runs each task on the calling
 * thread when it is submitted. Defining the header's include guard makes
 * fast_matrix_market use this one; its readers and writers then work as
 * with a pool of one thread whose queue never holds anything: submit()
 * returns a ready std::future (nothreads.h's), with the task's value or
 * the exception it threw. */
#ifndef PYBOX_SERIAL_TASK_POOL_H
#define PYBOX_SERIAL_TASK_POOL_H
#if defined(__cplusplus) && defined(_LIBCPP_HAS_NO_THREADS)
#include "../matplotlib/nothreads.h"
#include <functional>
#include <future>
#include <type_traits>
#include <utility>

#define AL_TASK_THREAD_POOL_HPP
namespace task_thread_pool {
class task_thread_pool {
public:
  explicit task_thread_pool(unsigned int = 0) {}
  unsigned int get_num_threads() const { return 1; }
  size_t get_num_queued_tasks() const { return 0; }
  size_t get_num_running_tasks() const { return 0; }
  size_t get_num_tasks() const { return 0; }
  void clear_task_queue() {}
  bool is_paused() const { return false; }
  void pause() {}
  void unpause() {}
  void wait_for_queued_tasks() {}
  void wait_for_tasks() {}

  template <typename F, typename... A,
#if __cplusplus >= 201703L
            typename R = std::invoke_result_t<std::decay_t<F>, std::decay_t<A>...>
#else
            typename R = typename std::result_of<typename std::decay<F>::type(typename std::decay<A>::type...)>::type
#endif
            >
  std::future<R> submit(F &&func, A &&...args) {
    std::packaged_task<R()> task(std::bind(std::forward<F>(func), std::forward<A>(args)...));
    std::future<R> f = task.get_future();
    task();
    return f;
  }
  /* As the pool's workers do, a detached task's exception is dropped. */
  template <typename F> void submit_detach(F &&func) {
    std::packaged_task<void()> task(std::forward<F>(func));
    task();
  }
  template <typename F, typename... A> void submit_detach(F &&func, A &&...args) {
    std::packaged_task<void()> task(std::bind(std::forward<F>(func), std::forward<A>(args)...));
    task();
  }
};
} // namespace task_thread_pool
#endif
#endif
