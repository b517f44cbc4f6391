/*
 * A stand-in for Apple's Darwin C module, for Scripts/check-darwin.sh.
 *
 * It declares exactly what Sources/DuneEvents/Platform/ uses, with the types
 * and values of Apple's headers on 64-bit Apple platforms (arm64 and x86_64
 * agree on all of them), so that `swiftc -typecheck` on Linux checks the
 * Darwin branches: a name Darwin lacks (an inotify call, MADV_HUGEPAGE) is
 * "cannot find in scope", and a width mistake (st_mode is 16 bits, st_dev is
 * a signed 32-bit number) is a type error.
 *
 * Each block names the header it transcribes: xnu's bsd/sys/... (the
 * kernel's user-visible headers, in Apple's SDK as usr/include/sys/...) or
 * Libc's include/... . Variadic C functions (open, fcntl) are not imported by
 * Swift; Swift's Darwin overlay gives them Swift shapes, and so does
 * ../DarwinOverlay.swift. Nothing here is compiled into a program: the
 * declarations are only type-checked against.
 *
 * Self-contained on purpose: it includes no system header, so no Linux
 * declaration can leak into the check.
 */
#ifndef DUNE_DARWIN_STAND_IN_H
#define DUNE_DARWIN_STAND_IN_H

/* --- sys/_types.h, sys/_types/*.h, arm/_types.h, i386/_types.h: the integer types --- */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long time_t;              /* sys/_types/_time_t.h: __darwin_time_t, a long */
typedef uint16_t mode_t;          /* sys/_types/_mode_t.h: __darwin_mode_t, __uint16_t (Linux: 32 bits) */
typedef int32_t dev_t;            /* sys/_types/_dev_t.h: __darwin_dev_t, __int32_t (Linux: unsigned 64 bits) */
typedef uint64_t ino64_t;         /* sys/_types/_ino64_t.h */
typedef uint16_t nlink_t;         /* sys/_types/_nlink_t.h */
typedef uint32_t uid_t;           /* sys/_types/_uid_t.h */
typedef uint32_t gid_t;           /* sys/_types/_gid_t.h */
typedef int64_t off_t;            /* sys/_types/_off_t.h: __darwin_off_t, __int64_t */
typedef int64_t blkcnt_t;         /* sys/_types/_blkcnt_t.h */
typedef int32_t blksize_t;        /* sys/_types/_blksize_t.h */
typedef int32_t pid_t;            /* sys/_types/_pid_t.h */
typedef unsigned int fsblkcnt_t;  /* sys/_types/_fsblkcnt_t.h: __darwin_fsblkcnt_t, unsigned int (32 bits) */
typedef unsigned int fsfilcnt_t;  /* sys/_types/_fsfilcnt_t.h */

/* --- sys/_types/_timespec.h --- */
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

/* --- sys/errno.h: errno is a macro over __error(); the overlay gives Swift `errno` --- */
extern int *__error(void);
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define EACCES 13
#define EEXIST 17
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define EFBIG 27
#define ENOSPC 28
#define EROFS 30
#define EPIPE 32
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define ENOTSUP 45
#define EDQUOT 69

/* --- sys/fcntl.h: open(2) flags, fcntl(2) commands, flock(2) operations --- */
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_EVTONLY 0x00008000      /* a descriptor for event notifications only */
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define F_GETFL 3
#define F_SETFL 4
#define F_NOCACHE 48
#define F_FULLFSYNC 51
#define F_SETPROTECTIONCLASS 64
#define LOCK_SH 0x01
#define LOCK_EX 0x02
#define LOCK_NB 0x04
#define LOCK_UN 0x08
/* open and fcntl are variadic: not imported; see the overlay. */
int open(const char *path, int oflag, ...);
int fcntl(int fd, int cmd, ...);
int flock(int fd, int operation);
/* The overlay's open and fcntl call these fixed-arity helpers, as Swift's
   overlay calls its shims (stdlib/public/SwiftShims, _swift_stdlib_open). */
int _dune_stand_in_open(const char *path, int oflag, mode_t mode);
int _dune_stand_in_fcntl(int fd, int cmd, int value);
int _dune_stand_in_fcntlPtr(int fd, int cmd, void *ptr);

/* --- unistd.h (Libc include/unistd.h) --- */
int close(int fd);
ssize_t read(int fd, void *buffer, size_t count);
ssize_t pread(int fd, void *buffer, size_t count, off_t offset);
ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset);
ssize_t write(int fd, const void *buffer, size_t count);
int fsync(int fd);
int ftruncate(int fd, off_t length);
int unlink(const char *path);
int isatty(int fd);
pid_t getpid(void);
long sysconf(int name);
#define _SC_NPROCESSORS_ONLN 58

/* --- stdio.h (Libc include/stdio.h) --- */
int rename(const char *from, const char *to);

/* --- sys/stat.h: struct stat with 64-bit inodes (__DARWIN_STRUCT_STAT64, what
   `struct stat` is on every current Apple platform). S_IFMT, S_IFREG,
   S_IFDIR and S_IFLNK are given as mode_t by the overlay, which shadows the C macros. --- */
struct stat {
    dev_t st_dev;
    mode_t st_mode;
    nlink_t st_nlink;
    ino64_t st_ino;
    uid_t st_uid;
    gid_t st_gid;
    dev_t st_rdev;
    struct timespec st_atimespec;
    struct timespec st_mtimespec;
    struct timespec st_ctimespec;
    struct timespec st_birthtimespec;
    off_t st_size;
    blkcnt_t st_blocks;
    blksize_t st_blksize;
    uint32_t st_flags;
    uint32_t st_gen;
    int32_t st_lspare;
    int64_t st_qspare[2];
};
int stat(const char *path, struct stat *info);
int fstat(int fd, struct stat *info);
int lstat(const char *path, struct stat *info);
int chmod(const char *path, mode_t mode);
int fchmod(int fd, mode_t mode);
int mkdir(const char *path, mode_t mode);

/* --- sys/mount.h: struct statfs with 64-bit counts (__DARWIN_STRUCT_STATFS64) --- */
typedef struct { int32_t val[2]; } fsid_t;   /* sys/_types/_fsid_t.h */
struct statfs {
    uint32_t f_bsize;
    int32_t f_iosize;
    uint64_t f_blocks;
    uint64_t f_bfree;
    uint64_t f_bavail;
    uint64_t f_files;
    uint64_t f_ffree;
    fsid_t f_fsid;
    uid_t f_owner;
    uint32_t f_type;
    uint32_t f_flags;
    uint32_t f_fssubtype;
    char f_fstypename[16];
    char f_mntonname[1024];
    char f_mntfromname[1024];
    uint32_t f_flags_ext;
    uint32_t f_reserved[7];
};
int statfs(const char *path, struct statfs *info);

/* --- sys/statvfs.h: Libc's emulation over statfs, with 32-bit block counts
   (fsblkcnt_t). Kept so that a return to statvfs type-checks against the
   narrow field, as it would on Darwin. --- */
struct statvfs {
    unsigned long f_bsize;
    unsigned long f_frsize;
    fsblkcnt_t f_blocks;
    fsblkcnt_t f_bfree;
    fsblkcnt_t f_bavail;
    fsfilcnt_t f_files;
    fsfilcnt_t f_ffree;
    fsfilcnt_t f_favail;
    unsigned long f_fsid;
    unsigned long f_flag;
    unsigned long f_namemax;
};
int statvfs(const char *path, struct statvfs *info);

/* --- string.h (Libc include/string.h) --- */
char *strerror(int code);
void *memchr(const void *base, int byte, size_t count);

/* --- time.h (Libc include/time.h): clockid_t is an enum whose constants are
   spelled _CLOCK_*, with the POSIX names as macros aliasing them. --- */
typedef enum {
    _CLOCK_REALTIME = 0,
#define CLOCK_REALTIME _CLOCK_REALTIME
    _CLOCK_MONOTONIC = 6,
#define CLOCK_MONOTONIC _CLOCK_MONOTONIC
    _CLOCK_MONOTONIC_RAW = 4,
#define CLOCK_MONOTONIC_RAW _CLOCK_MONOTONIC_RAW
    _CLOCK_MONOTONIC_RAW_APPROX = 5,
#define CLOCK_MONOTONIC_RAW_APPROX _CLOCK_MONOTONIC_RAW_APPROX
    _CLOCK_UPTIME_RAW = 8,
#define CLOCK_UPTIME_RAW _CLOCK_UPTIME_RAW
    _CLOCK_UPTIME_RAW_APPROX = 9,
#define CLOCK_UPTIME_RAW_APPROX _CLOCK_UPTIME_RAW_APPROX
    _CLOCK_PROCESS_CPUTIME_ID = 12,
#define CLOCK_PROCESS_CPUTIME_ID _CLOCK_PROCESS_CPUTIME_ID
    _CLOCK_THREAD_CPUTIME_ID = 16
#define CLOCK_THREAD_CPUTIME_ID _CLOCK_THREAD_CPUTIME_ID
} clockid_t;
int clock_gettime(clockid_t clock, struct timespec *now);
int nanosleep(const struct timespec *request, struct timespec *remaining);

/* --- stdlib.h (Libc include/stdlib.h) --- */
char *getenv(const char *name);
void exit(int status) __attribute__((__noreturn__));

/* --- sys/signal.h: SIG_IGN is a cast macro; the overlay gives it as sig_t --- */
typedef void (*sig_t)(int);
#define SIGINT 2
#define SIGPIPE 13
#define SIGTERM 15
#define SIGXFSZ 25
void (*signal(int sig, void (*handler)(int)))(int);

/* --- dirent.h (Libc include/dirent.h) and sys/dirent.h (64-bit inodes:
   __DARWIN_STRUCT_DIRENTRY). DIR is a complete struct on Darwin, so Swift sees
   UnsafeMutablePointer<DIR>, where Glibc's opaque DIR gives OpaquePointer;
   its fields are Libc's, the lock and telldir record reduced to their size. --- */
struct dirent {
    uint64_t d_ino;
    uint64_t d_seekoff;
    uint16_t d_reclen;
    uint16_t d_namlen;
    uint8_t d_type;
    char d_name[1024];
};
typedef struct {
    int __dd_fd;
    long __dd_loc;
    long __dd_size;
    char *__dd_buf;
    int __dd_len;
    long __dd_seek;
    long __padding;
    int __dd_flags;
    char __dd_lock[64];       /* __darwin_pthread_mutex_t: a long and 56 bytes */
    void *__dd_td;            /* struct _telldir * */
} DIR;
DIR *opendir(const char *path);
struct dirent *readdir(DIR *directory);
int closedir(DIR *directory);

/* --- sys/mman.h: mmap(2). MAP_FAILED is a cast macro; the overlay gives it.
   Darwin has no MADV_HUGEPAGE (nor transparent huge pages). --- */
#define PROT_READ 0x01
#define PROT_WRITE 0x02
#define MAP_PRIVATE 0x0002
#define MAP_ANON 0x1000
#define MAP_ANONYMOUS MAP_ANON
void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset);
int munmap(void *address, size_t length);
int madvise(void *address, size_t length, int advice);
#define MADV_DONTNEED 4

/* --- sys/event.h: kqueue(2), kevent(2), the EVFILT_VNODE filter --- */
struct kevent {
    uintptr_t ident;
    int16_t filter;
    uint16_t flags;
    uint32_t fflags;
    intptr_t data;
    void *udata;
};
#define EVFILT_VNODE (-4)
#define EV_ADD 0x0001
#define EV_CLEAR 0x0020
#define NOTE_DELETE 0x00000001
#define NOTE_WRITE 0x00000002
#define NOTE_EXTEND 0x00000004
#define NOTE_ATTRIB 0x00000008
#define NOTE_RENAME 0x00000020
int kqueue(void);
int kevent(int kq, const struct kevent *changes, int changeCount,
           struct kevent *events, int eventCount, const struct timespec *timeout);


/* === NATS sockets (issue 36): what Platform/Socket.swift uses === */

/* --- sys/errno.h (xnu bsd/sys/errno.h): the socket errors --- */
#define EPIPE 32
#define EINPROGRESS 36
#define ECONNABORTED 53
#define ECONNRESET 54
#define ETIMEDOUT 60

/* --- sys/fcntl.h (xnu bsd/sys/fcntl.h): the close-on-exec descriptor flag --- */
#define F_SETFD 2
#define FD_CLOEXEC 1

/* --- sys/_types/_socklen_t.h, sys/_types/_sa_family_t.h: sa_family_t is 8 bits
   on Darwin (Linux: unsigned short), and every sockaddr starts with its length --- */
typedef uint32_t socklen_t;       /* __darwin_socklen_t, __uint32_t */
typedef uint8_t sa_family_t;      /* __uint8_t */

/* --- sys/socket.h (xnu bsd/sys/socket.h). Darwin has SO_NOSIGPIPE, and neither
   SOCK_CLOEXEC nor SOCK_NONBLOCK (Linux-only socket(2) type flags). --- */
#define SOCK_STREAM 1
#define SOL_SOCKET 0xffff
#define SO_ERROR 0x1007
#define SO_NOSIGPIPE 0x1022
#define AF_UNSPEC 0
#define AF_INET 2
#define AF_INET6 30
struct sockaddr {
    uint8_t sa_len;
    sa_family_t sa_family;
    char sa_data[14];
};
int socket(int domain, int type, int protocol);
int connect(int socket, const struct sockaddr *address, socklen_t length);
int getsockopt(int socket, int level, int name, void *value, socklen_t *length);
int setsockopt(int socket, int level, int name, const void *value, socklen_t length);
ssize_t send(int socket, const void *buffer, size_t length, int flags);
ssize_t recv(int socket, void *buffer, size_t length, int flags);

/* --- netinet/in.h, netinet/tcp.h (xnu bsd/netinet/in.h, bsd/netinet/tcp.h) --- */
#define IPPROTO_TCP 6
#define TCP_NODELAY 0x01

/* --- netdb.h (Libinfo lookup.subproj/netdb.h, in the SDK as usr/include/netdb.h).
   Darwin's addrinfo has ai_canonname before ai_addr (Glibc: after). --- */
struct addrinfo {
    int ai_flags;
    int ai_family;
    int ai_socktype;
    int ai_protocol;
    socklen_t ai_addrlen;
    char *ai_canonname;
    struct sockaddr *ai_addr;
    struct addrinfo *ai_next;
};
int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result);
void freeaddrinfo(struct addrinfo *list);
const char *gai_strerror(int code);

/* --- poll.h (xnu bsd/sys/poll.h): nfds_t is an unsigned int on Darwin (Glibc: unsigned long) --- */
typedef unsigned int nfds_t;
struct pollfd {
    int fd;
    short events;
    short revents;
};
#define POLLIN 0x0001
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
int poll(struct pollfd *fds, nfds_t count, int timeout);

/* === end of NATS sockets (issue 36) === */

#endif
