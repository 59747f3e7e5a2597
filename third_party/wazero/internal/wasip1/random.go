package wasip1

const RandomGetName = "random_get"
