/* Plain C between two C++ frames (see eh_test.cpp): compiled by clang-19
 * with no exception support, as CPython and C libraries are. A C++
 * exception thrown by fn passes through this frame on its way to a handler
 * further up: the rest of this function does not run (returned stays
 * behind entered), and nothing here needs cleaning up. */
static int entered, returned;

int c_call_through(int (*fn)(int), int arg) {
    entered++;
    int r = fn(arg);
    returned++;
    return r;
}

/* A function the C++ compiler cannot see into (eh_enter_loop). */
int c_leaf(int i) { return i & 7; }

/* entered - returned: how many calls an exception went through. */
__attribute__((export_name("eh_c_frames_unwound")))
int eh_c_frames_unwound(void) { return entered - returned; }
