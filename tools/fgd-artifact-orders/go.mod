module fleetsim/tools/fgd-artifact-orders

go 1.19
