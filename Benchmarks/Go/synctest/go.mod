module marbles/synctestbench

go 1.25
