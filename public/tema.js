// Colour scheme before the first paint: the choice kept on this device, else the system's (see client/app/tema.ts).
(() => {
  const sistema = matchMedia('(prefers-color-scheme: dark)');
  const aplicar = () => {
    let elegido = null;
    try {
      elegido = localStorage.getItem('deca-tema');
    } catch {}
    const oscuro = elegido === 'oscuro' || (elegido !== 'claro' && sistema.matches);
    document.documentElement.dataset.tema = oscuro ? 'oscuro' : 'claro';
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', oscuro ? '#13263d' : '#0b5394');
  };
  aplicar();
  sistema.addEventListener('change', aplicar);
  addEventListener('storage', (e) => e.key === 'deca-tema' && aplicar());
  addEventListener('deca-tema', aplicar);
})();
