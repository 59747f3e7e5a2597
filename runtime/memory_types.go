package runtime

import "github.com/tetratelabs/wazero/experimental"

// experimentalLinearMemory names wazero's type in one place.
type experimentalLinearMemory = experimental.LinearMemory
