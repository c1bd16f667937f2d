<?php
/*
 * The WordPress site of bench/cms, built and moved through WordPress's own
 * PHP API (php-cli loading wp-load.php), so that the database holds what
 * the CMS itself stores when a person writes in it:
 *   php site.php install ORIGIN   wp_install(), permalinks, options
 *   php site.php content          posts, pages, terms, media, comments
 *   php site.php move ORIGIN      the site moved to ORIGIN (run.sh's port)
 *   php site.php stats            counts of what is published
 *   php site.php sample           a post with images and threaded comments
 * CMS_WP names the WordPress directory (bench/cms/env.sh). The content is
 * the same on every build: one seeded random sequence (mt_srand).
 */

if (PHP_SAPI !== 'cli')
	exit(1);
$cmd = $argv[1] ?? '';
$cms_wp = getenv('CMS_WP');
if (!$cms_wp || !is_file("$cms_wp/wp-load.php")) {
	fwrite(STDERR, "site.php: CMS_WP does not name a WordPress directory\n");
	exit(2);
}

/* WordPress reads the host from the request; a CLI has none. */
$origin = $argv[2] ?? 'http://www.blog.test:8080';
$cms_u = parse_url($origin);
$_SERVER['HTTP_HOST'] = $cms_u['host'] . (isset($cms_u['port']) ? ':' . $cms_u['port'] : '');
$_SERVER['SERVER_NAME'] = $cms_u['host'];
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';

if ($cmd === 'install')
	define('WP_INSTALLING', true);
/* No revisions while generating: each post is saved empty, then with its
 * text once its image is uploaded, which would otherwise keep the empty
 * one as a revision. */
define('WP_POST_REVISIONS', false);
require "$cms_wp/wp-load.php";

function say($msg)
{
	fwrite(STDOUT, "site.php: $msg\n");
}

function die_wp($what, $r)
{
	fwrite(STDERR, "site.php: $what: " . (is_wp_error($r) ? $r->get_error_message() : var_export($r, true)) . "\n");
	exit(1);
}

function site_install($origin)
{
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	/* The site has no mail: wp_install's notice to the admin is not sent. */
	add_filter('pre_wp_mail', '__return_false');
	$r = wp_install('Tern Bench Notes', 'admin', 'admin@blog.test', true, '', 'bench-admin-password', 'en_US');
	if (empty($r['user_id']))
		die_wp('wp_install', $r);
	update_option('siteurl', $origin);
	update_option('home', $origin);
	update_option('blogdescription', 'Field notes, photographs and long comment threads');
	update_option('timezone_string', 'UTC');
	update_option('posts_per_page', 10);
	update_option('thread_comments', 1);
	update_option('thread_comments_depth', 5);
	update_option('default_comment_status', 'open');
	update_option('blog_public', 1);
	/* Day-and-name permalinks: date archives at /YYYY/, /YYYY/MM/, /YYYY/MM/DD/. */
	global $wp_rewrite;
	$wp_rewrite->set_permalink_structure('/%year%/%monthnum%/%day%/%postname%/');
	$wp_rewrite->set_category_base('');
	$wp_rewrite->set_tag_base('');
	flush_rewrite_rules(false);
	switch_theme('twentytwentythree');
	say('installed, theme ' . get_stylesheet() . ', home ' . home_url('/'));
}

/* Words for titles, text and names (a fixed list: the content must be the
 * same on every build). */
$WORDS = explode(' ', 'river stone harbour lantern meadow copper orchard winter signal bridge ' .
	'archive garden compass island quarry thunder velvet willow beacon canyon ' .
	'ember falcon glacier hollow juniper kestrel lagoon marble nectar opal ' .
	'pepper quartz raven saffron timber umber valley walnut yarrow zephyr ' .
	'morning evening market station letter journey window kitchen street ladder');
$LOREM = explode(' ', 'the a of and to in is was on with for as at by from that this it its ' .
	'we our they their walked found kept noted measured crossed mapped counted watched wrote ' .
	'slowly again later early quietly north south east west under over between beyond along');

function rnd_pick($a)
{
	return $a[mt_rand(0, count($a) - 1)];
}

function rnd_title()
{
	global $WORDS;
	$n = mt_rand(2, 5);
	$w = [];
	for ($i = 0; $i < $n; $i++)
		$w[] = rnd_pick($WORDS);
	return ucfirst(implode(' ', $w));
}

function rnd_sentence()
{
	global $WORDS, $LOREM;
	$n = mt_rand(8, 18);
	$w = [];
	for ($i = 0; $i < $n; $i++)
		$w[] = mt_rand(0, 2) ? rnd_pick($LOREM) : rnd_pick($WORDS);
	return ucfirst(implode(' ', $w)) . '.';
}

function rnd_paragraph($min = 3, $max = 7)
{
	$s = [];
	$n = mt_rand($min, $max);
	for ($i = 0; $i < $n; $i++)
		$s[] = rnd_sentence();
	return implode(' ', $s);
}

function block_p($text)
{
	return "<!-- wp:paragraph -->\n<p>$text</p>\n<!-- /wp:paragraph -->\n\n";
}

/* A small image made with GD: a gradient, bands and a label, JPEG or PNG. */
function make_image($i, $dir)
{
	$w = 640;
	$h = 480;
	$im = imagecreatetruecolor($w, $h);
	$c1 = [mt_rand(0, 255), mt_rand(0, 255), mt_rand(0, 255)];
	$c2 = [mt_rand(0, 255), mt_rand(0, 255), mt_rand(0, 255)];
	for ($y = 0; $y < $h; $y++) {
		$t = $y / ($h - 1);
		$c = imagecolorallocate($im, (int)($c1[0] + ($c2[0] - $c1[0]) * $t),
			(int)($c1[1] + ($c2[1] - $c1[1]) * $t), (int)($c1[2] + ($c2[2] - $c1[2]) * $t));
		imageline($im, 0, $y, $w - 1, $y, $c);
	}
	for ($k = 0; $k < 6; $k++) {
		$c = imagecolorallocatealpha($im, mt_rand(0, 255), mt_rand(0, 255), mt_rand(0, 255), 60);
		imagefilledellipse($im, mt_rand(0, $w), mt_rand(0, $h), mt_rand(40, 260), mt_rand(40, 260), $c);
	}
	$white = imagecolorallocate($im, 255, 255, 255);
	imagestring($im, 5, 20, $h - 30, sprintf('bench/cms image %03d', $i), $white);
	$png = $i % 5 === 4;
	$file = sprintf('%s/photo-%03d.%s', $dir, $i, $png ? 'png' : 'jpg');
	if ($png)
		imagepng($im, $file, 9);
	else
		imagejpeg($im, $file, 80);
	imagedestroy($im);
	return $file;
}

function image_block($att, $link)
{
	$src = wp_get_attachment_image_url($att, 'large');
	$alt = esc_attr(get_post_meta($att, '_wp_attachment_image_alt', true));
	$img = "<img src=\"$src\" alt=\"$alt\" class=\"wp-image-$att\"/>";
	$attrs = ['id' => $att, 'sizeSlug' => 'large'];
	if ($link === 'attachment') {
		$attrs['linkDestination'] = 'attachment';
		$img = '<a href="' . get_attachment_link($att) . "\">$img</a>";
	} elseif ($link === 'media') {
		$attrs['linkDestination'] = 'media';
		$img = '<a href="' . wp_get_attachment_url($att) . "\">$img</a>";
	} else {
		$attrs['linkDestination'] = 'none';
	}
	$caption = esc_html(get_the_title($att));
	return '<!-- wp:image ' . wp_json_encode($attrs) . " -->\n" .
		"<figure class=\"wp-block-image size-large\">$img<figcaption class=\"wp-element-caption\">$caption</figcaption></figure>\n" .
		"<!-- /wp:image -->\n\n";
}

function site_content()
{
	global $WORDS;
	require_once ABSPATH . 'wp-admin/includes/file.php';
	require_once ABSPATH . 'wp-admin/includes/media.php';
	require_once ABSPATH . 'wp-admin/includes/image.php';
	mt_srand(31);
	wp_set_current_user(1);
	/* wp_install's own post, page and comment, dated before the rest rather
	 * than on the day of the build, so that every build has the same archives. */
	wp_update_post(['ID' => 1, 'post_date' => '2021-01-01 09:00:00', 'post_date_gmt' => '2021-01-01 09:00:00']);
	wp_update_post(['ID' => 2, 'post_date' => '2021-01-01 09:10:00', 'post_date_gmt' => '2021-01-01 09:10:00']);
	wp_update_comment(['comment_ID' => 1, 'comment_date' => '2021-01-01 10:00:00',
		'comment_date_gmt' => '2021-01-01 10:00:00']);
	$editor = wp_insert_user(['user_login' => 'alice', 'user_pass' => 'bench-alice-password',
		'user_email' => 'alice@blog.test', 'display_name' => 'Alice Marsh', 'role' => 'editor']);
	if (is_wp_error($editor))
		die_wp('wp_insert_user', $editor);
	$authors = [1, $editor];

	/* Categories, two with children, and tags. */
	$cats = [];
	foreach (['Travel', 'Photography', 'Field notes', 'Kitchen', 'Reading', 'Tools', 'Weather', 'Letters'] as $name)
		$cats[$name] = wp_insert_term($name, 'category')['term_id'];
	foreach (['Travel' => ['Coast', 'Mountains'], 'Photography' => ['Film', 'Night']] as $parent => $kids)
		foreach ($kids as $name)
			$cats[$name] = wp_insert_term($name, 'category', ['parent' => $cats[$parent]])['term_id'];
	$catids = array_values($cats);
	$tags = array_slice($WORDS, 0, 36);

	/* Pages: a small tree. */
	$about = wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'About',
		'post_content' => block_p(rnd_paragraph()) . block_p(rnd_paragraph()), 'post_author' => 1,
		'post_date' => '2021-01-02 10:00:00']);
	foreach (['Colophon', 'Contact'] as $t)
		wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => $t,
			'post_parent' => $about, 'post_content' => block_p(rnd_paragraph()), 'post_author' => 1,
			'post_date' => '2021-01-02 11:00:00']);

	/* 180 posts between 2021 and 2024, in date order; 100 of them get an
	 * image of their own in the media library (uploaded in the post's month,
	 * shown in the post, linked to its attachment page, to the file or not
	 * at all), most of those also as featured image; some more show an
	 * earlier post's image. */
	$nposts = 180;
	$nimages = 100;
	$start = strtotime('2021-01-04 08:00:00 UTC');
	$span = strtotime('2024-12-20 08:00:00 UTC') - $start;
	$dates = [];
	for ($i = 0; $i < $nposts; $i++)
		$dates[] = $start + mt_rand(0, $span);
	sort($dates);
	$with_image = array_flip(array_rand(array_flip(range(0, $nposts - 1)), $nimages));
	$tmp = sys_get_temp_dir() . '/tern-cms-images-' . getmypid();
	wp_mkdir_p($tmp);
	$posts = [];
	$atts = [];
	$img = 0;
	for ($i = 0; $i < $nposts; $i++) {
		$date = gmdate('Y-m-d H:i:s', $dates[$i]);
		$title = rnd_title();
		$post_tags = [];
		for ($k = mt_rand(0, 5); $k > 0; $k--)
			$post_tags[] = rnd_pick($tags);
		$pc = [rnd_pick($catids)];
		if (mt_rand(0, 2) === 0)
			$pc[] = rnd_pick($catids);
		/* The post first, as the editor saves a draft before an upload, so
		 * that its image is uploaded attached to it (its attachment page
		 * lives under the post's permalink). */
		$id = wp_insert_post(['post_type' => 'post', 'post_status' => 'publish', 'post_title' => $title,
			'post_content' => '', 'post_date' => $date, 'post_date_gmt' => $date,
			'post_author' => rnd_pick($authors), 'post_category' => array_unique($pc),
			'tags_input' => array_unique($post_tags)], true);
		if (is_wp_error($id))
			die_wp('wp_insert_post', $id);
		$body = block_p(rnd_paragraph());
		$att = 0;
		if (isset($with_image[$i])) {
			$file = make_image($img, $tmp);
			$img++;
			$att = media_handle_sideload(['name' => basename($file), 'tmp_name' => $file], $id, $title,
				['post_title' => "Photo: $title"]);
			if (is_wp_error($att))
				die_wp('media_handle_sideload', $att);
			update_post_meta($att, '_wp_attachment_image_alt', "Photo: $title");
			$atts[] = $att;
			$body .= image_block($att, rnd_pick(['attachment', 'attachment', 'media', 'none']));
			if (mt_rand(0, 4))
				set_post_thumbnail($id, $att);
		} elseif ($atts && mt_rand(0, 9) === 0) {
			$body .= image_block(rnd_pick($atts), 'none');
		}
		$body .= "<!-- wp:heading -->\n<h2>" . rnd_title() . "</h2>\n<!-- /wp:heading -->\n\n";
		$body .= block_p(rnd_paragraph());
		if ($posts && mt_rand(0, 2) === 0) {
			$old = rnd_pick($posts);
			$body .= block_p('Earlier: <a href="' . get_permalink($old) . '">' . esc_html(get_the_title($old)) .
				'</a>. ' . rnd_sentence());
		}
		if (mt_rand(0, 3) === 0) {
			$items = '';
			for ($k = mt_rand(3, 6); $k > 0; $k--)
				$items .= '<li>' . rnd_sentence() . '</li>';
			$body .= "<!-- wp:list -->\n<ul>$items</ul>\n<!-- /wp:list -->\n\n";
		}
		$body .= block_p(rnd_paragraph(2, 5));
		$r = wp_update_post(['ID' => $id, 'post_content' => $body], true);
		if (is_wp_error($r))
			die_wp('wp_update_post', $r);
		$posts[] = $id;
	}
	@rmdir($tmp);

	/* 900 approved comments: most posts get a few, some a long thread;
	 * 45 % answer an earlier comment of the same post (threads up to the
	 * depth of 5 set at install), so every comment shown has its
	 * ?replytocom= reply link. Some commenters give a web site. */
	$names = ['Ada', 'Bram', 'Chiara', 'Dmitri', 'Eun-ji', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas',
		'Kaito', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tomas'];
	$ncomments = 900;
	$per = array_fill(0, $nposts, 0);
	for ($c = 0; $c < $ncomments; $c++) {
		/* A skewed choice: a quarter of the comments go to 12 posts. */
		$p = mt_rand(0, 3) === 0 ? mt_rand(0, 11) * 15 : mt_rand(0, $nposts - 1);
		$per[$p]++;
	}
	$made = 0;
	foreach ($per as $p => $n) {
		$pid = $posts[$p];
		$t = $dates[$p];
		$thread = [];
		for ($k = 0; $k < $n; $k++) {
			$t += mt_rand(600, 86400 * 3);
			$parent = 0;
			$depth = 1;
			if ($thread && mt_rand(0, 99) < 45) {
				$cand = array_filter($thread, fn($d) => $d < 5);
				if ($cand) {
					$parent = array_rand($cand);
					$depth = $thread[$parent] + 1;
				}
			}
			$name = rnd_pick($names);
			$cid = wp_insert_comment(['comment_post_ID' => $pid, 'comment_author' => $name,
				'comment_author_email' => strtolower($name) . '@mail.test',
				'comment_author_url' => mt_rand(0, 3) === 0 ? 'https://' . strtolower($name) . '.example.org/' : '',
				'comment_content' => rnd_paragraph(1, 4), 'comment_parent' => $parent,
				'comment_date' => gmdate('Y-m-d H:i:s', $t), 'comment_date_gmt' => gmdate('Y-m-d H:i:s', $t),
				'comment_approved' => 1, 'comment_agent' => 'bench/cms', 'comment_author_IP' => '127.0.0.1']);
			if (!$cid)
				die_wp('wp_insert_comment', $cid);
			$thread[$cid] = $depth;
			$made++;
		}
	}

	/* The footer as a person would customise it in the Site Editor (stored
	 * as a wp_template_part post): monthly archives, a calendar, the
	 * categories and a tag cloud above the theme's own footer. */
	$footer = "<!-- wp:group {\"layout\":{\"type\":\"constrained\"}} -->\n<div class=\"wp-block-group\">" .
		"<!-- wp:columns {\"align\":\"wide\"} -->\n<div class=\"wp-block-columns alignwide\">" .
		"<!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:heading {\"level\":3} --><h3>Archives</h3><!-- /wp:heading -->" .
		"<!-- wp:archives {\"displayAsDropdown\":false,\"showPostCounts\":true} /--></div>\n<!-- /wp:column -->" .
		"<!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:calendar /--></div>\n<!-- /wp:column -->" .
		"<!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:heading {\"level\":3} --><h3>Categories</h3><!-- /wp:heading -->" .
		"<!-- wp:categories {\"showHierarchy\":true,\"showPostCounts\":true} /--></div>\n<!-- /wp:column -->" .
		"<!-- wp:column -->\n<div class=\"wp-block-column\"><!-- wp:heading {\"level\":3} --><h3>Tags</h3><!-- /wp:heading -->" .
		"<!-- wp:tag-cloud /--></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns --></div>\n<!-- /wp:group -->\n\n" .
		"<!-- wp:pattern {\"slug\":\"twentytwentythree/footer-default\"} /-->";
	$fid = wp_insert_post(['post_type' => 'wp_template_part', 'post_status' => 'publish', 'post_name' => 'footer',
		'post_title' => 'Footer', 'post_content' => $footer], true);
	if (is_wp_error($fid))
		die_wp('footer template part', $fid);
	wp_set_object_terms($fid, get_stylesheet(), 'wp_theme');
	wp_set_object_terms($fid, 'footer', 'wp_template_part_area');
	say(sprintf('%d posts, %d images, %d comments, %d categories, %d tags', count($posts), count($atts), $made,
		count($cats), count($tags)));
}

function site_move($origin)
{
	global $wpdb;
	$old = get_option('home');
	if ($old === $origin)
		return;
	/* What a site moved to a new address needs (wp-cli's search-replace
	 * does the same): the two options, and the absolute URLs WordPress wrote
	 * into the posts it stores (image blocks, links, GUIDs). */
	update_option('siteurl', $origin);
	update_option('home', $origin);
	$n = $wpdb->query($wpdb->prepare("UPDATE {$wpdb->posts} SET post_content = REPLACE(post_content, %s, %s), " .
		'guid = REPLACE(guid, %s, %s)', $old, $origin, $old, $origin));
	say("moved from $old to $origin ($n posts rewritten)");
}

function site_stats()
{
	$p = wp_count_posts('post')->publish;
	$pg = wp_count_posts('page')->publish;
	$a = wp_count_posts('attachment')->inherit;
	$c = wp_count_comments()->approved;
	$cat = wp_count_terms(['taxonomy' => 'category']);
	$tag = wp_count_terms(['taxonomy' => 'post_tag']);
	echo "$p posts, $pg pages, $a media items, $c comments, $cat categories, $tag tags\n";
}

/* A post with at least two images in its page (its own image and featured
 * image) and a reply thread: URL, title, heading, for run.sh's replay
 * check. */
function site_sample()
{
	global $wpdb;
	$ids = $wpdb->get_col("SELECT p.ID FROM {$wpdb->posts} p JOIN {$wpdb->postmeta} m ON m.post_id = p.ID " .
		"AND m.meta_key = '_thumbnail_id' WHERE p.post_type = 'post' AND p.post_status = 'publish' " .
		"AND p.post_content LIKE '%wp:image%' AND p.comment_count >= 4 ORDER BY p.post_date DESC LIMIT 1");
	if (!$ids) {
		fwrite(STDERR, "site.php: no post with an image and comments\n");
		exit(1);
	}
	$id = (int)$ids[0];
	echo wp_json_encode(['url' => get_permalink($id), 'title' => html_entity_decode(wp_get_document_title_for($id)),
		'h1' => get_the_title($id), 'comments' => (int)get_comments_number($id)]) . "\n";
}

/* The document title WordPress prints for a post ("Post – Site"). */
function wp_get_document_title_for($id)
{
	global $wp_query, $post;
	$wp_query = new WP_Query(['p' => $id]);
	$wp_query->the_post();
	$t = wp_get_document_title();
	wp_reset_postdata();
	return $t;
}

switch ($cmd) {
case 'install':
	site_install($origin);
	break;
case 'content':
	site_content();
	break;
case 'move':
	site_move($origin);
	break;
case 'stats':
	site_stats();
	break;
case 'sample':
	site_sample();
	break;
default:
	fwrite(STDERR, "usage: php site.php install ORIGIN | content | move ORIGIN | stats | sample\n");
	exit(2);
}
