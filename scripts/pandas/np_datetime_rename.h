/* np_datetime_rename.h — force-included (-include) when compiling the C
 * files of pandas._libs.pandas_datetime (scripts/build-pandas.sh).
 *
 * pandas vendors part of numpy's datetime code (src/vendored/numpy/datetime)
 * and keeps four of numpy's global function names. As separate shared
 * libraries the copies never meet; linked statically into one python.wasm
 * next to numpy's own, they would be duplicate symbols. pandas' copies are
 * renamed; only this module calls them by name (other modules reach them
 * through the module's capsule, whose struct member names are the same
 * in every file, so the capsule layout does not change). */
#define add_minutes_to_datetimestruct pybox_pandas_add_minutes_to_datetimestruct
#define get_datetimestruct_days pybox_pandas_get_datetimestruct_days
#define get_datetime_metadata_from_dtype pybox_pandas_get_datetime_metadata_from_dtype
#define is_leapyear pybox_pandas_is_leapyear
