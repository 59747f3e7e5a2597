/* pgo_rt.c — the part of a profile runtime that compiler-rt lacks for
 * wasm32-wasi, for the PGO training build of python.wasm only
 * (scripts/bench/pgo.sh).
 *
 * compiler-rt's lib/profile is compiled for wasm32-wasi without its file
 * layer (InstrProfilingFile.c and InstrProfilingUtil.c need mmap, flock and
 * getpid): a reactor never runs atexit, so nothing would call it anyway.
 * This file defines the hook symbol every instrumented object references
 * and writes the raw profile, value profiles (indirect call targets)
 * included, to a named file when the guest asks (_pgo.dump, _pgomodule.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "InstrProfiling.h"
#include "InstrProfilingInternal.h"

/* Referenced by every instrumented object so that the runtime is linked;
 * compiler-rt defines it in InstrProfilingRuntime.cpp, which registers the
 * atexit writer this build has no use for. */
int __llvm_profile_runtime;

static uint32_t pgo_fwrite(ProfDataWriter *w, ProfDataIOVec *iov, uint32_t n) {
  FILE *f = (FILE *)w->WriterCtx;
  for (uint32_t i = 0; i < n; i++) {
    size_t len = iov[i].ElmSize * iov[i].NumElm;
    if (iov[i].Data) {
      if (fwrite(iov[i].Data, iov[i].ElmSize, iov[i].NumElm, f) != iov[i].NumElm)
        return 1;
    } else if (iov[i].UseZeroPadding) {
      for (size_t k = 0; k < len; k++)
        if (fputc(0, f) == EOF)
          return 1;
    } else if (fseek(f, (long)len, SEEK_CUR) != 0) {
      return 1;
    }
  }
  return 0;
}

/* pybox_pgo_write writes the counters so far to path as a .profraw file
 * (for llvm-profdata merge). Returns 0, or -1 with errno set. */
int pybox_pgo_write(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  ProfDataWriter w = {pgo_fwrite, f};
  int rc = lprofWriteData(&w, lprofGetVPDataReader(), 0);
  if (fclose(f) != 0)
    rc = -1;
  return rc ? -1 : 0;
}

/* pybox_pgo_reset zeroes the counters (e.g. after start-up, to train on a
 * workload alone). */
void pybox_pgo_reset(void) { __llvm_profile_reset_counters(); }

/* The two atomic helpers of compiler-rt's InstrProfilingUtil.c, which is left
 * out with the file layer: value profiling (-mllvm -enable-value-profiling)
 * calls them to allocate its value nodes. The guest runs one thread, so a
 * plain compare-and-swap and add are exact. */
unsigned lprofBoolCmpXchg(void **Ptr, void *OldV, void *NewV) {
  if (*Ptr != OldV)
    return 0;
  *Ptr = NewV;
  return 1;
}

void *lprofPtrFetchAdd(void **Mem, long ByteIncr) {
  char *Old = (char *)*Mem;
  *Mem = Old + ByteIncr;
  return Old;
}
