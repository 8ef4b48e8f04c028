module cfuzz.test/gointerop

go 1.19
