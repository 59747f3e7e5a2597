// C++ exceptions on wasm32-wasi in the standard WebAssembly exception-handling
// encoding, run by runtime/cxxeh_test.go under wazero. Built by build.sh in
// this directory against the libc++/libc++abi of scripts/build-libcxx.sh.
//
// A WASI reactor: each exported case returns a number the Go test checks
// (most return 0 on success and a distinct non-zero code for each way they
// can go wrong), and may leave a message in `message` (read by
// eh_message/eh_message_len).

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
// eh_cshim.c: plain C compiled by clang-19 without any exception support,
// like CPython's or a C library's frames between C++ frames.
int c_call_through(int (*fn)(int), int arg);
int c_leaf(int i);
}

namespace {

char message[256];

void set_message(const char *s) {
  std::snprintf(message, sizeof message, "%s", s);
}

int destroyed;  // destructors run by Guard

struct Guard {
  int id;
  explicit Guard(int i) : id(i) {}
  ~Guard() { destroyed = destroyed * 10 + id; }
};

// noinline keeps the throw in a separate function from the catch, so the
// exception really crosses frames instead of being folded into a branch.
[[gnu::noinline]] int thrower(int v) {
  if (v > 0) throw v;
  return -v;
}

[[gnu::noinline]] int layer(int v) {
  Guard g(1);
  return thrower(v) + 1;
}

[[gnu::noinline]] void throw_runtime_error(int n) {
  throw std::runtime_error("bad value " + std::to_string(n));
}

struct CustomError : std::exception {
  int code;
  explicit CustomError(int c) : code(c) {}
  const char *what() const noexcept override { return "custom"; }
};

[[gnu::noinline]] void throw_custom(int c) { throw CustomError(c); }

}  // namespace

extern "C" {

__attribute__((export_name("eh_message"))) const char *eh_message() {
  return message;
}

__attribute__((export_name("eh_message_len"))) int eh_message_len() {
  return static_cast<int>(std::strlen(message));
}

// An int thrown two frames down is caught by value; without a throw the
// normal path runs. Returns 0 on success.
__attribute__((export_name("eh_throw_catch"))) int eh_throw_catch() {
  int got = -1;
  try {
    layer(42);
    return 1;
  } catch (int v) {
    got = v;
  }
  if (got != 42) return 2;
  try {
    if (layer(-5) != 6) return 3;
  } catch (...) {
    return 4;
  }
  return 0;
}

// catch (...) takes any type, including a class type with no handler of
// its own; a handler for a different type is skipped.
__attribute__((export_name("eh_catch_all"))) int eh_catch_all() {
  try {
    try {
      throw_custom(7);
    } catch (int) {
      return 1;
    } catch (const std::runtime_error &) {
      return 2;
    }
  } catch (...) {
    return 0;
  }
  return 3;
}

// Destructors of every frame between the throw and the handler run during
// unwinding, innermost first: Guard 1 (in layer), then Guard 2, then Guard 3.
// Each destructor appends its id as a digit, so the result is 123.
__attribute__((export_name("eh_raii"))) int eh_raii() {
  destroyed = 0;
  try {
    Guard g3(3);
    {
      Guard g2(2);
      layer(1);  // Guard 1 lives in layer
    }
  } catch (int) {
    return destroyed;
  }
  return -1;
}

// std::runtime_error built from a std::string; what() survives the unwind.
__attribute__((export_name("eh_what"))) int eh_what(int n) {
  try {
    throw_runtime_error(n);
  } catch (const std::exception &e) {
    set_message(e.what());
    return 0;
  }
  return 1;
}

// A handler throws a new exception of another type, caught by an outer try;
// the inner exception is destroyed properly (the outer handler sees the new
// one).
__attribute__((export_name("eh_nested"))) int eh_nested() {
  try {
    try {
      throw_custom(1);
    } catch (const CustomError &e) {
      if (e.code != 1) return 1;
      try {
        throw std::logic_error("inner");
      } catch (const std::logic_error &le) {
        if (std::strcmp(le.what(), "inner") != 0) return 2;
      }
      throw_custom(e.code + 1);
    }
  } catch (const CustomError &e) {
    return e.code == 2 ? 0 : 3;
  }
  return 4;
}

// `throw;` rethrows the object being handled (same address), and
// std::exception_ptr carries an exception out of its handler to be rethrown
// later.
__attribute__((export_name("eh_rethrow"))) int eh_rethrow() {
  const void *first = nullptr;
  try {
    try {
      throw_custom(9);
    } catch (CustomError &e) {
      first = &e;
      e.code = 10;
      throw;
    }
  } catch (CustomError &e) {
    if (&e != first) return 1;
    if (e.code != 10) return 2;
  }
  std::exception_ptr saved;
  try {
    throw_runtime_error(5);
  } catch (...) {
    saved = std::current_exception();
  }
  if (!saved) return 3;
  try {
    std::rethrow_exception(saved);
  } catch (const std::runtime_error &e) {
    if (std::strcmp(e.what(), "bad value 5") != 0) return 4;
  }
  return 0;
}

// Exceptions thrown by libc++ itself (built with exceptions by
// scripts/build-libcxx.sh): vector::at and operator new.
__attribute__((export_name("eh_library"))) int eh_library(unsigned huge) {
  std::vector<int> v(3);
  try {
    (void)v.at(5);
    return 1;
  } catch (const std::out_of_range &) {
  }
  try {
    // An allocation the memory cannot hold: malloc fails, new throws.
    std::vector<char> big(huge);
    return big.size() == huge ? 2 : 3;
  } catch (const std::bad_alloc &) {
  }
  return 0;
}

// ---- The pattern of pybind11 / matplotlib's wrappers: C++ code called from
// C (Python's C API) must never let an exception escape into C. The wrapper
// catches everything and turns it into an error code and message, which the
// binding turns into a Python exception.

// The C++ "library" function: throws on bad input. extern "C" so that the C
// shim can call it back; it is not noexcept, so the exception leaves it.
int cxx_checked_sqrt(int v) {
  if (v < 0) throw std::domain_error("negative input " + std::to_string(v));
  if (v > 1000000) throw CustomError(v);
  int r = 0;
  while ((r + 1) * (r + 1) <= v) r++;
  return r;
}

// The wrapper: the exception travels from cxx_checked_sqrt up through the C
// frame of c_call_through (which has no landing pads and is simply
// unwound) to here. Returns the result, or -1 (domain error) / -2 (other
// C++ exception) with the message set, as a binding returns NULL with a
// Python exception set.
__attribute__((export_name("eh_wrapped_sqrt"))) int eh_wrapped_sqrt(int v) {
  message[0] = 0;
  try {
    return c_call_through(cxx_checked_sqrt, v);
  } catch (const std::domain_error &e) {
    set_message(e.what());
    return -1;
  } catch (const std::exception &e) {
    set_message(e.what());
    return -2;
  } catch (...) {
    set_message("unknown C++ exception");
    return -3;
  }
}

// Throws and catches n times across frames with a live std::string; the
// Go test checks that the memory does not grow (exception objects are
// freed) and the time per throw.
__attribute__((export_name("eh_loop"))) int eh_loop(int n) {
  int caught = 0;
  for (int i = 0; i < n; i++) {
    try {
      std::string s(100, 'x');
      throw_runtime_error(i);
    } catch (const std::runtime_error &) {
      caught++;
    }
  }
  return caught;
}

// The cost of code that never throws. with_cleanup=1: each of the n calls
// goes through a function holding a Guard across a call, i.e. through a
// landing pad (one try_table entered per call); 0: the same calls without
// the Guard (no try_table). Returns the sum of the callee's results.
// c_leaf (eh_cshim.c) is opaque to the compiler, so it may throw: a
// function that holds an object with a destructor across it needs a
// landing pad.
[[gnu::noinline]] int with_guard(int i) {
  Guard g(1);
  return c_leaf(i);
}

[[gnu::noinline]] int without_guard(int i) { return c_leaf(i); }

__attribute__((export_name("eh_enter_loop"))) int eh_enter_loop(int n, int with_cleanup) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += with_cleanup ? with_guard(i) : without_guard(i);
  return sum;
}

// No handler anywhere: the exception leaves the module. The host must see a
// failed call, never a return value.
__attribute__((export_name("eh_uncaught"))) int eh_uncaught() {
  throw_runtime_error(1);
  return 7;
}

// An exception reaching a noexcept function calls std::terminate, which
// aborts: a trap.
[[gnu::noinline]] static int no_throw_allowed() noexcept {
  throw_custom(3);
  return 7;
}

__attribute__((export_name("eh_terminate"))) int eh_terminate() {
  try {
    return no_throw_allowed();
  } catch (...) {
    return 8;  // never: noexcept stops the exception first
  }
}

}  // extern "C"
