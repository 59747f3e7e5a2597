/* pybox: WASI has no System V IPC; OpenBLAS (built with NO_SYSV_IPC) only includes this. */
