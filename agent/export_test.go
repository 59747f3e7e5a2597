package agent

// Must returns s, panicking on err (tests).
func Must(s Store, err error) Store {
	if err != nil {
		panic(err)
	}
	return s
}
