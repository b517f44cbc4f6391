// What Scripts/check-darwin.sh compiles beside the copied platform layer in
// place of the rest of DuneEvents: the few types of other folders that
// Platform/ names, with only the members it uses. Type-checked, never run.
// When Platform/ starts using another type of the module, add it here (or
// copy its file in the script, when it is small and itself needs no more).
//
// None today: `LogFile.identity`, the one use of `LogFile`, is in
// Sources/DuneEvents/Log/LogFile+Identity.swift.
