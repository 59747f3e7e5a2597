// Package expctxkeys provides keys for the context used to store the experimental APIs.
package expctxkeys
