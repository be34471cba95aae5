#!/bin/busybox sh
# guest_init.sh - /init of a dbscale guest (compiled into dbscale and
# packed into each kernel's initramfs by initramfs.c).
#
# It loads the 9p and virtio modules the host listed (lib/dbscale/*.ko, in
# order), mounts the host's root read-only over 9p with the study's
# directory writable under /run/dbscale, and runs the host's script for this
# boot (dbscale.run=NAME on the kernel command line) chrooted into the host's
# root, so the guest runs the same dbscale and the same server binaries.
# Every line it prints starts "dbscale-guest:" so the host can tell its
# progress from the kernel's and the command's; the host reads the command's
# exit code from the study directory, not from the console.
B=/bin/busybox
say() { echo "dbscale-guest: $*"; }
stop() {
	$B sync
	$B poweroff -f
}
fail() {
	say "FAILED: $*"
	stop
}
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev 2>/dev/null
say "init at $($B cut -d' ' -f1 /proc/uptime) s"
for m in /lib/dbscale/*.ko; do
	[ -e "$m" ] || continue
	$B insmod "$m" || fail "insmod $m failed"
done
run=$($B sed -n 's/.*dbscale\.run=\([A-Za-z0-9._-]*\).*/\1/p' /proc/cmdline)
[ -n "$run" ] || fail "no dbscale.run= on the kernel command line"
o=trans=virtio,version=9p2000.L,msize=512000
$B mount -t 9p -o $o,ro,cache=loose hostroot /newroot ||
	fail "cannot mount the host's root over 9p (the kernel needs 9p, 9pnet_virtio and virtio_pci)"
$B mount -t proc proc /newroot/proc || fail "cannot mount /proc in the host's root"
$B mount -t sysfs sys /newroot/sys
$B mount -t devtmpfs dev /newroot/dev
$B mkdir -p /newroot/dev/shm /newroot/dev/pts
$B mount -t tmpfs -o mode=1777 shm /newroot/dev/shm
$B mount -t devpts devpts /newroot/dev/pts
$B mount -t tmpfs -o mode=0755 run /newroot/run || fail "cannot mount a tmpfs on /run"
# the host's /tmp and /var/tmp stay readable under /run/host before the
# guest's own cover them: a dbscale built under /tmp runs from there
for d in tmp var/tmp; do
	$B mkdir -p "/newroot/run/host/$d"
	$B mount -o bind "/newroot/$d" "/newroot/run/host/$d" 2>/dev/null
	$B mount -t tmpfs -o mode=1777 "$d" "/newroot/$d" 2>/dev/null
done
$B mkdir -p /newroot/run/dbscale
$B mount -t 9p -o $o,cache=none study /newroot/run/dbscale ||
	fail "cannot mount the study directory over 9p"
$B ifconfig lo 127.0.0.1 netmask 255.0.0.0 up
$B hostname dbscale-guest
[ -f "/newroot/run/dbscale/.vm/$run.sh" ] || fail "no script .vm/$run.sh in the study directory"
say "running $run at $($B cut -d' ' -f1 /proc/uptime) s"
$B chroot /newroot /bin/sh "/run/dbscale/.vm/$run.sh"
say "exit $? at $($B cut -d' ' -f1 /proc/uptime) s"
stop
