import type { PageProps } from '../../../../shared/api/route-definition.ts';
import mark from '../assets/mark.png';
import '../assets/with-assets.css';

/** A page whose stylesheet names a font and an image, and which shows the image by its imported URL. */
export default function WithAssetsPage(_props: PageProps) {
  return <img className="with-assets" src={mark} alt="" />;
}
