import type { Config } from 'tailwindcss';

/**
 * Design tokens. Tailwind v4 loads this file through `@config` in
 * app/styles/app.css, so these names are the only brand colours in use.
 */
export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#eef7f6',
          100: '#d5ecea',
          200: '#acd9d5',
          500: '#1f8a80',
          600: '#177166',
          700: '#135a52',
          900: '#0c3a35',
        },
        accent: { 500: '#f08c2e', 600: '#d9731a' },
        premium: { 400: '#f5c542', 500: '#e0a800' },
        danger: { 50: '#fdf0ef', 600: '#c0392b', 700: '#a12d22' },
        success: { 50: '#edf8f0', 600: '#23803f' },
        ink: { DEFAULT: '#1d2426', muted: '#4d5a5e', faint: '#5a6569' },
        surface: { DEFAULT: '#ffffff', subtle: '#f5f7f7', line: '#dfe5e6' },
      },
      fontFamily: {
        sans: ['system-ui', '-apple-system', '"Segoe UI"', 'Roboto', '"Helvetica Neue"', 'Arial', 'sans-serif'],
      },
      borderRadius: { card: '0.75rem' },
      boxShadow: { card: '0 1px 2px rgb(16 24 40 / 0.06), 0 1px 3px rgb(16 24 40 / 0.1)' },
      maxWidth: { page: '76rem' },
    },
  },
} satisfies Config;
