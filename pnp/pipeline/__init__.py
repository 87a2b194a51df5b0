"""The build pipeline: plan (every input resolved and checked, nothing written), execute (impose,
write, commit the kit whole), watch and serve, and the duplex calibration sheet."""
