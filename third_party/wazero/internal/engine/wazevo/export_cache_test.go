package wazevo

// FileCacheKey exposes fileCacheKey to the external tests of cache hits.
var FileCacheKey = fileCacheKey
