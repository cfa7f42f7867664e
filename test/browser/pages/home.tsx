// The product's home page, built into the fixture bundle so the fixture server hydrates it too.
export { default } from '../../../shared/pages/home.tsx';
