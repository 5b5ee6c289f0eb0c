/*
 * iogauge's HTML report: draws the charts described in #iogauge-data with
 * Chart.js (inlined above), then writes what it drew into #iogauge-rendered
 * so tests can check the charts hold the result's data.  No network.
 */
(function () {
	'use strict';
	const data = JSON.parse(document.getElementById('iogauge-data').textContent);
	const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1',
		'#ff9da7', '#9c755f', '#bab0ac'];
	const fmt = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3));

	/* Error bars: the passes' min-max drawn over each bar. */
	const errorBars = {
		id: 'errorBars',
		afterDatasetsDraw(chart) {
			const ctx = chart.ctx, y = chart.scales.y;
			chart.data.datasets.forEach((ds, i) => {
				const meta = chart.getDatasetMeta(i);
				if (!ds.err || meta.hidden) return;
				meta.data.forEach((bar, k) => {
					const e = ds.err[k];
					if (!e) return;
					const lo = y.getPixelForValue(e[0]), hi = y.getPixelForValue(e[1]);
					const w = Math.max(3, bar.width / 4);
					ctx.save();
					ctx.strokeStyle = '#1d2430';
					ctx.lineWidth = 1.5;
					ctx.beginPath();
					ctx.moveTo(bar.x, lo); ctx.lineTo(bar.x, hi);
					ctx.moveTo(bar.x - w, lo); ctx.lineTo(bar.x + w, lo);
					ctx.moveTo(bar.x - w, hi); ctx.lineTo(bar.x + w, hi);
					ctx.stroke();
					ctx.restore();
				});
			});
		}
	};

	/* x = 1/(1-p) on a log axis: 1 is 0%, 10 is 90%, 100 is 99%... */
	const pctLabel = (x) => {
		const l = Math.log10(x);
		if (Math.abs(l - Math.round(l)) > 1e-9) return '';
		const p = 100 * (1 - 1 / x);
		return (Math.round(p * 1e6) / 1e6) + '%';
	};

	function config(spec) {
		const bar = spec.kind === 'bar';
		const datasets = spec.datasets.map((d, i) => {
			const color = palette[i % palette.length];
			const ds = {
				label: d.label, data: d.data, err: d.err, borderColor: color,
				backgroundColor: bar ? color + 'cc' : color, borderWidth: bar ? 0 : 1.8,
				pointRadius: d.style === 'knee' ? 9 : spec.kind === 'time' ? 2 : 1.5,
				showLine: d.style !== 'knee', tension: 0
			};
			if (d.style === 'knee') { ds.pointStyle = 'rectRot'; ds.borderWidth = 2; ds.borderColor = '#1d2430'; ds.backgroundColor = '#e15759'; }
			if (d.style === 'dash') { ds.borderDash = [6, 4]; ds.pointRadius = 0; ds.borderWidth = 1.2; }
			if (d.style === 'window') { ds.backgroundColor = color + '33'; ds.fill = true; ds.pointRadius = 3; }
			/* report --trend: the earlier runs' spread, filled between its two edges. */
			if (d.style === 'bandlo' || d.style === 'band') { ds.pointRadius = 0; ds.borderWidth = 0; ds.borderColor = '#9aa5b1'; }
			if (d.style === 'band') { ds.fill = '-1'; ds.backgroundColor = '#9aa5b155'; }
			if (d.color) { ds.borderColor = d.color; ds.backgroundColor = bar ? d.color + 'cc' : d.color; }
			return ds;
		});
		const axisTitle = (t) => ({ display: !!t, text: t });
		const scales = bar ? {
			x: { title: axisTitle(spec.xlabel) },
			y: { beginAtZero: true, title: axisTitle(spec.ylabel) }
		} : {
			x: { type: spec.kind === 'pct' || spec.xlog ? 'logarithmic' : 'linear', title: axisTitle(spec.xlabel) },
			y: { type: spec.kind === 'pct' || spec.ylog ? 'logarithmic' : 'linear', beginAtZero: !spec.ylog && spec.kind !== 'pct', title: axisTitle(spec.ylabel) }
		};
		if (bar) {
			/* Room for the error bars above the tallest bar. */
			let top = 0;
			spec.datasets.forEach((d) => (d.err || []).forEach((e) => { if (e && e[1] > top) top = e[1]; }));
			if (top > 0) scales.y.suggestedMax = top;
		}
		/* Counted x values (rounds): whole-number ticks only. */
		if (spec.xint) scales.x.ticks = { precision: 0 };
		if (spec.kind === 'pct') {
			scales.x.min = 1;
			scales.x.ticks = { callback: (v) => pctLabel(v), autoSkip: false, maxRotation: 0 };
		}
		const tooltip = {
			callbacks: {
				label: (c) => {
					const raw = c.raw;
					if (spec.kind === 'pct') return `${c.dataset.label}: p${raw.p}: ${fmt(raw.y)} us`;
					if (bar) {
						const e = c.dataset.err && c.dataset.err[c.dataIndex];
						return `${c.dataset.label}: ${fmt(raw)}` + (e ? ` (min ${fmt(e[0])}, max ${fmt(e[1])})` : '');
					}
					return `${c.dataset.label}: ${fmt(raw.y)} at ${fmt(raw.x)}` + (raw.note ? ` (${raw.note})` : '');
				}
			}
		};
		return {
			/* xy curves need not run left to right: scatter with lines keeps their order. */
			type: bar ? 'bar' : spec.kind === 'xy' ? 'scatter' : 'line',
			data: bar ? { labels: spec.labels, datasets } : { datasets },
			options: {
				animation: false, responsive: true, maintainAspectRatio: false, parsing: bar || spec.kind === 'xy' ? undefined : false,
				normalized: spec.kind === 'time' || spec.kind === 'pct',
				interaction: { mode: 'nearest', intersect: false },
				plugins: {
					/* Many series (a PTS run's jobs): a legend would cover the chart; the tooltip names each. */
					title: { display: true, font: { size: 14 }, text: spec.title +
						(datasets.length > 24 ? ` (${datasets.length} series: hover a line for its name)` : '') },
					legend: { display: datasets.length <= 24, position: 'bottom', labels: { boxWidth: 12 } },
					tooltip
				},
				scales
			},
			plugins: bar ? [errorBars] : []
		};
	}

	const rendered = {};
	let drawn = 0;
	for (const spec of data.charts) {
		const canvas = document.getElementById(spec.id);
		const chart = new Chart(canvas, config(spec));
		const sets = chart.data.datasets.map((d, i) => ({
			label: d.label, data: d.data, err: d.err, drawn: chart.getDatasetMeta(i).data.length
		}));
		rendered[spec.key] = { id: spec.id, kind: spec.kind, labels: chart.data.labels, datasets: sets,
			xticks: chart.scales.x ? chart.scales.x.ticks.map((t) => t.value) : [] };
		drawn++;
	}
	document.getElementById('iogauge-rendered').textContent =
		JSON.stringify({ charts: drawn, byKey: rendered });
	document.body.setAttribute('data-charts-drawn', String(drawn));
})();
