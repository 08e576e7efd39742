import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App.tsx';
import './styles.css';

// The CSP forbids eval; zod would otherwise probe `new Function('')` and log a violation.
z.config({ jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
