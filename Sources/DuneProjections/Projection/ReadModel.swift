/// A read model: a value at one `seq` of the log.
package protocol ReadModel: Sendable, Equatable {
    /// The `seq` of the last event the model reflects.
    var throughSeq: Int { get set }
}

extension ReadModel {
    /// The same model stamped with another `throughSeq`.
    func restamped(_ seq: Int) -> Self {
        var model = self
        model.throughSeq = seq
        return model
    }
}
