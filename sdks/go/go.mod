module smm.local/smm

go 1.19
