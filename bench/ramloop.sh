# shellcheck shell=bash
# bench/ramloop.sh - sourced by the bench scripts, never run: a RAM-backed loop device, so a
# device-bound run sees no host disk and no host cache, only the block layer and a memory copy.
#
#   ramloop_make DIR MB   a tmpfs of its own on DIR/ram (capped at MB + 16 MiB), a file of MB MiB
#                         of random data on it (no signature: iogauge may write it with
#                         --allow-destroy), a loop device over it with direct I/O; sets RAMLOOP
#   ramloop_drop          detaches that loop device and unmounts that tmpfs (call it from the
#                         script's EXIT trap; it touches nothing it did not make)

RAMLOOP=""
RAMLOOP_MNT=""

ramloop_make() {
	local dir=$1 mb=$2
	if [[ $(id -u) != 0 ]]; then
		echo "ramloop: needs root (a tmpfs mount and a loop device)" >&2
		return 1
	fi
	command -v losetup >/dev/null || { echo "ramloop: no losetup" >&2; return 1; }
	mkdir -p "$dir/ram"
	mount -t tmpfs -o "size=$((mb + 16))m" tmpfs "$dir/ram" || return 1
	RAMLOOP_MNT=$dir/ram
	dd if=/dev/urandom of="$RAMLOOP_MNT/img" bs=1M count="$mb" status=none || return 1
	RAMLOOP=$(losetup -f --show --direct-io=on "$RAMLOOP_MNT/img") || { RAMLOOP=""; return 1; }
}

ramloop_drop() {
	if [[ -n "$RAMLOOP" ]]; then
		losetup -d "$RAMLOOP" 2>/dev/null || true
		RAMLOOP=""
	fi
	if [[ -n "$RAMLOOP_MNT" ]] && mountpoint -q "$RAMLOOP_MNT"; then
		# The detach waits for the last opener (udev probes a device written to): then the file is free.
		local i
		for ((i = 0; i < 20; i++)); do
			umount "$RAMLOOP_MNT" 2>/dev/null && break
			sleep 0.25
		done
		if mountpoint -q "$RAMLOOP_MNT"; then
			umount -l "$RAMLOOP_MNT" || true
		fi
	fi
	RAMLOOP_MNT=""
}
