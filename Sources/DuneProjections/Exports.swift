@_exported import DuneEvents
