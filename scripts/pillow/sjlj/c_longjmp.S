# The exception tag LLVM's wasm setjmp/longjmp lowering throws and catches.
.globl __c_longjmp
.tagtype __c_longjmp i32
__c_longjmp:
