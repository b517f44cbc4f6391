extension LogFile {
    /// The identity (device, inode) of the open file, for snapshot stamps and
    /// for noticing that the log's path now names another file.
    ///
    /// - Throws: `DuneEventsError` `.io` if `fstat` fails or the file is closed.
    package var identity: FileIdentity {
        get throws(DuneEventsError) { try status().identity }
    }
}
