package wasip1

const SchedYieldName = "sched_yield"
