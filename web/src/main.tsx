import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { Embed } from './embed/Embed';
import { isEmbed } from './embed/embed';
import { registerServiceWorker } from './offline/register';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(<StrictMode>{isEmbed(window.location.search) ? <Embed /> : <App />}</StrictMode>);

registerServiceWorker();
