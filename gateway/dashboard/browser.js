/* global document, navigator, Chart */
// The dashboard's only script (served as /dashboard/assets/dashboard.js): the copy button of
// the API key, and the analytics charts drawn with Chart.js from the page's JSON data. Every
// page works without it; the charts' numbers are also in a table.
(function () {
    'use strict';
    for (const button of document.querySelectorAll('[data-copy]')) {
        button.addEventListener('click', async () => {
            const input = document.getElementById(button.getAttribute('data-copy'));
            input.select();
            try {
                await navigator.clipboard.writeText(input.value);
                button.textContent = 'Copied';
            } catch {
                button.textContent = 'Press Ctrl+C';
            }
        });
    }

    const source = document.getElementById('analytics-data');
    if (source === null || typeof Chart === 'undefined') return;
    const data = JSON.parse(source.textContent);
    const days = data.days.map((d) => d.day.slice(5));
    const line = (id, datasets) =>
        new Chart(document.getElementById(id), {
            type: 'line',
            data: { labels: days, datasets },
            options: { animation: false, responsive: true, interaction: { mode: 'index', intersect: false } },
        });
    line('chart-players', [
        { label: 'Active', data: data.days.map((d) => d.activePlayers), borderColor: '#3451b2' },
        { label: 'New', data: data.days.map((d) => d.newPlayers), borderColor: '#067647' },
        { label: 'Returning', data: data.days.map((d) => d.returningPlayers), borderColor: '#b54708' },
    ]);
    line('chart-activity', [
        { label: 'Plays', data: data.days.map((d) => d.plays), borderColor: '#3451b2' },
        { label: 'Submissions', data: data.days.map((d) => d.submissions), borderColor: '#7a5af8' },
    ]);
    const colors = ['#3451b2', '#067647', '#b54708', '#7a5af8', '#c11574', '#0e9384'];
    new Chart(document.getElementById('chart-providers'), {
        type: 'doughnut',
        data: {
            labels: data.providers.map((p) => p.provider),
            datasets: [{ data: data.providers.map((p) => p.players), backgroundColor: colors }],
        },
        options: { animation: false },
    });
    const boards = data.boards.slice(0, 10);
    new Chart(document.getElementById('chart-boards'), {
        type: 'bar',
        data: {
            labels: boards.map((b) => b.scoreboardId),
            datasets: [{ label: 'Submissions', data: boards.map((b) => b.submissions), backgroundColor: '#3451b2' }],
        },
        options: { animation: false, indexAxis: 'y' },
    });
    document.body.setAttribute('data-charts', 'drawn');
})();
