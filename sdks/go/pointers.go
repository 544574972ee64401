package smm

import "time"

// String returns a pointer to s, for the optional fields of update params.
func String(s string) *string { return &s }

// Bool returns a pointer to b, for the optional fields of update params.
func Bool(b bool) *bool { return &b }

// Time returns a pointer to t, for the optional fields of update params.
func Time(t time.Time) *time.Time { return &t }
