package main

func init() {
	commands = []*command{
		tojsonCmd,
		fromjsonCmd,
		catCmd,
		totextCmd,
		fromtextCmd,
		getschemaCmd,
		getmetaCmd,
		countCmd,
		validateCmd,
		concatCmd,
		recodecCmd,
		randomCmd,
		repairCmd,
		canonicalCmd,
		fingerprintCmd,
		compatCmd,
		idlCmd,
		idl2schemataCmd,
		registryCmd,
		decodeCmd,
	}
}
