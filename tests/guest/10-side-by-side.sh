# SPDX-License-Identifier: GPL-2.0
# Stock f2fs and f2fs_packed loaded at once, each mounting its own disk at
# the same time; fio with verify on both; data survives umount + mount.
# vm: -d 2 -s 1G
set -eu
. "$REPO/tests/lib/guest.sh"

load_stock
load_packed
mkfs_f2fs "$DISK1"
mkfs_f2fs "$DISK2"
mount_fs f2fs "$DISK1" /mnt/stock
mount_fs f2fs_packed "$DISK2" /mnt/packed

check "stock mount is type f2fs" grep -q "^$DISK1 /mnt/stock f2fs " /proc/mounts
check "our mount is type f2fs_packed" grep -q "^$DISK2 /mnt/packed f2fs_packed " /proc/mounts

fio_verify() {
	fio --name=verify --directory="$1" --rw=randwrite --bs=4k --size=64m \
		--nrfiles=4 --verify=crc32c --verify_fatal=1 --do_verify=1 \
		--ioengine=psync --randrepeat=1 --eta=never --output="/tmp/fio-$2.log"
}
fio_verify /mnt/stock stock &
stock_pid=$!
fio_verify /mnt/packed packed &
packed_pid=$!
check "fio verify on stock f2fs" wait $stock_pid
check "fio verify on f2fs_packed" wait $packed_pid

for m in stock packed; do
	mkdir -p /mnt/$m/data
	dd if=/dev/urandom of=/mnt/$m/data/blob bs=1M count=16 status=none
	cp -a /usr/share/doc/f2fs-tools /mnt/$m/data/
	sha_record /mnt/$m/data /tmp/$m.sha
done

umount_fsck "$DISK1" /mnt/stock
umount_fsck "$DISK2" /mnt/packed
mount_fs f2fs "$DISK1" /mnt/stock
mount_fs f2fs_packed "$DISK2" /mnt/packed
check "stock data intact after remount" sha_verify /mnt/stock/data /tmp/stock.sha
check "f2fs_packed data intact after remount" sha_verify /mnt/packed/data /tmp/packed.sha
umount_fsck "$DISK1" /mnt/stock
umount_fsck "$DISK2" /mnt/packed
finish
