import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { isEmbed } from './share/query';
import { registerServiceWorker } from './offline/register';
import './styles.css';

// The embedded page shows a chart at once, so it imports the charts statically: as its own
// chunk, the full page's first load does not fetch them.
const Embed = lazy(() => import('./embed/Embed').then((m) => ({ default: m.Embed })));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    {isEmbed(window.location.search) ? (
      <Suspense fallback={null}>
        <Embed />
      </Suspense>
    ) : (
      <App />
    )}
  </StrictMode>,
);

registerServiceWorker();
