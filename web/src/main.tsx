import { render } from 'preact';
import 'leaflet/dist/leaflet.css';
import './styles.css';
import { App } from './app';
import { reloadForNewAssets } from './reload-for-new-assets';

reloadForNewAssets();
render(<App />, document.getElementById('app')!);
