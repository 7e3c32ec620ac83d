import Glibc

/// What a thread started by ``EvdevKernel/asUnprivilegedUser(user:group:_:)`` runs; read after the join.
final class UnprivilegedRun: @unchecked Sendable {
    let body: @Sendable () -> Void
    let user: uid_t
    let group: gid_t
    var didRun = false

    init(_ body: @escaping @Sendable () -> Void, user: uid_t, group: gid_t) {
        self.body = body
        self.user = user
        self.group = group
    }
}
