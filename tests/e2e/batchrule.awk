# fio's queue discipline, judged call by call on an strace of io_submit and io_getevents
# (test_fio_batch.sh): B iodepth_batch_submit, D iodepth, N requests, L iodepth_low, CMIN/CMAX
# iodepth_batch_complete_min/max.  Prints: commits reaps violations.
function submitted(nr, ret) {
	# A commit short of B only fills the queue or carries the last requests.
	if (nr < B && inflight + nr != D && total + nr != N) bad++
	# Once the queue filled, nothing is queued until it drained to L.
	if (held && inflight > L) bad++
	inflight += ret; total += ret; commits++
	held = inflight == D && L < D
}
function reaped(mn, mx, ret) {
	# A reap waits for CMIN and takes at most CMAX; the last drain may wait for all left.
	if (!((mn == CMIN && mx <= CMAX) || (mn == mx && mn == inflight))) bad++
	inflight -= ret; reaps++
	if (inflight <= L) held = 0
}
function ret_of(s) { sub(/.*= /, "", s); return s + 0 }
/io_submit\(/ { a = $0; sub(/^[^,]*, /, "", a); sub(/,.*/, "", a); submitted(a + 0, ret_of($0)) }
/io_getevents\(/ { split($0, f, ", "); reaped(f[2] + 0, f[3] + 0, ret_of($0)) }
END { print commits + 0, reaps + 0, bad + 0 }
