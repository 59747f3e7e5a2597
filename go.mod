module github.com/pybox-dev/pybox

go 1.25.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/klauspost/compress v1.20.3
	github.com/spf13/afero v1.15.0
	github.com/tetratelabs/wazero v1.12.0
	golang.org/x/sys v0.44.0
)

require golang.org/x/text v0.28.0 // indirect
