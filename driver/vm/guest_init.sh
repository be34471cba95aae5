#!/bin/busybox sh
# guest_init.sh - /init of a dbscale guest (compiled into dbscale and
# packed into each kernel's initramfs by initramfs.c).
#
# It loads the 9p and virtio modules the host listed (lib/dbscale/*.ko, in
# order), mounts the host's root read-only over 9p, the boot's script
# directory read-only under /run/dbscale/vm and its variant's results
# directory writable under /run/dbscale/out, and runs the script chrooted
# into the host's root, so the guest runs the same dbscale and the same
# server binaries. Nothing of the host's is named on the kernel command
# line: the shares are the boot's own.
# Every line it prints starts "dbscale-guest:" and the command's lines "| "
# (the script prefixes them), so the host tells its progress, the kernel's
# lines and the command's apart; "exit N" is the command's exit code and
# "boot ID" the kernel's boot_id, which the command's rows carry too.
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
say "boot $($B cat /proc/sys/kernel/random/boot_id)"
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
$B mkdir -p /newroot/run/dbscale/vm /newroot/run/dbscale/out
$B mount -t 9p -o $o,ro,cache=none vm /newroot/run/dbscale/vm ||
	fail "cannot mount the boot's script directory over 9p"
$B mount -t 9p -o $o,cache=none out /newroot/run/dbscale/out ||
	fail "cannot mount the results directory over 9p"
$B ifconfig lo 127.0.0.1 netmask 255.0.0.0 up
$B hostname dbscale-guest
[ -f /newroot/run/dbscale/vm/run.sh ] || fail "no run.sh in the boot's script directory"
say "running at $($B cut -d' ' -f1 /proc/uptime) s"
$B chroot /newroot /bin/sh /run/dbscale/vm/run.sh
say "exit $? at $($B cut -d' ' -f1 /proc/uptime) s"
stop
